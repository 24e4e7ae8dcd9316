/* CTesseract carries `pkg-config tesseract` flags (include and link) to the C++ layer. */
