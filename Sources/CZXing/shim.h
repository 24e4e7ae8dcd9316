/* zxing-cpp's own C API. */
#include <ZXing/ZXingC.h>
