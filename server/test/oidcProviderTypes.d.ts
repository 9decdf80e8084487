// oidc-provider ships no type declarations; the test provider (oidcProvider.ts) uses it untyped.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
