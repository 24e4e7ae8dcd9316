/* Empty: CIFilterBuiltins' declarations are in the Swift module CoreImage (see module.modulemap). */
