/**
 * The runtime's version: generated packages name the version they were
 * generated for, and the engine addon must be this version too.
 * `scripts/packages` refuses to pack when it is not the crates' version.
 */
export const VERSION = "0.1.0";
