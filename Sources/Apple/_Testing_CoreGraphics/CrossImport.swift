// Swift Testing declares a cross-import overlay for Core Graphics (Testing.swiftcrossimport/CoreGraphics.swiftoverlay
// in the toolchain): a file that imports both Testing and a module named CoreGraphics — directly or through
// `import Vision` / `import CoreML`, which re-export it — makes the compiler import `_Testing_CoreGraphics` too, and
// fail with "no such module" where there is none. On Apple platforms that overlay makes CGImage a test attachment;
// here the module exists so that test code importing Testing and Vision builds, and adds nothing.
