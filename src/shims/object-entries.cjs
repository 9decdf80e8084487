// The console bundle's `object.entries` (required by node-polyglot, through ra-i18n-polyglot):
// every browser the console supports has Object.entries. The npm polyfill brings ~5 kB gzip of
// es-shims machinery (get-intrinsic, call-bind, define-properties…) into every page (the console's weight budget).
module.exports = Object.entries;
