#include <png.h>

// The composite format macros do not import into Swift; name them once here.
static const png_uint_32 radar_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 radar_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 radar_png_format_bgra = PNG_FORMAT_BGRA;
static const int radar_png_image_version = PNG_IMAGE_VERSION;
