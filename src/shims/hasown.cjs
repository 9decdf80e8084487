// The console bundle's `hasown` (node-polyglot): Object.hasOwn, which every supported browser has.
module.exports = Object.hasOwn;
