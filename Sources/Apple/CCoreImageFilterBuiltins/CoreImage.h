/* Empty: CoreImage's declarations are in the Swift module CoreImage (see module.modulemap). */
