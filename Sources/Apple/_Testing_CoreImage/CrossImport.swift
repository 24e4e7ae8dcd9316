// Swift Testing declares a cross-import overlay for Core Image (Testing.swiftcrossimport/CoreImage.swiftoverlay in
// the toolchain): a file that imports both Testing and a module named CoreImage — directly or through
// `import Vision`, which re-exports it — makes the compiler import `_Testing_CoreImage` too, and fail with "no such
// module" where there is none. On Apple platforms that overlay makes CIImage a test attachment; here the module
// exists so that test code importing Testing and Vision builds, and adds nothing (as _Testing_CoreGraphics).
