/* pngmap.c - a grey PNG as a map (painted maps); see mapread.h. */
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "mapread.h"

ff_status ff_map_parse_png(const unsigned char *data, size_t size, const char *name,
                           const ff_map_options *opt, ff_grid *g, ff_error *err)
{
    png_image image;
    png_bytep pixels;
    size_t n, i;

    if (!(opt->png_scale > 0) || !isfinite(opt->png_scale))
        return ff_error_set(err, FF_EUSAGE, name, 0, 0,
                            "--png-scale %g must be a positive number", opt->png_scale);
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size))
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "bad PNG: %s", image.message);
    if (image.format & PNG_FORMAT_FLAG_COLOR) {
        png_image_free(&image);
        return ff_error_set(err, FF_EINPUT, name, 0, 0,
                            "colour PNG: paint the map in grey (0 = wall, 1..255 = cost)");
    }
    if (ff_check_size(image.width, image.height, opt->max_cells, name, 0, err) != FF_OK) {
        png_image_free(&image);
        return FF_EINPUT;
    }
    /* The simplified API would convert 16-bit and alpha images through
     * gamma and compositing, which changes the levels: refuse them. */
    if (image.format & (PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_ALPHA)) {
        int linear = (image.format & PNG_FORMAT_FLAG_LINEAR) != 0;
        png_image_free(&image);
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "%s: save the map as 8-bit grey",
                            linear ? "16-bit PNG" : "PNG with an alpha channel");
    }
    image.format = PNG_FORMAT_GRAY;
    n = (size_t)image.width * (size_t)image.height;
    pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels) {
        png_image_free(&image);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for %zu pixels", n);
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "bad PNG: %s", image.message);
    }
    if (ff_grid_alloc(g, image.width, image.height, opt->max_cells, name, err) != FF_OK) {
        free(pixels);
        return err ? err->status : FF_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        g->cost[i] = pixels[i] == 0 ? INFINITY : (float)(pixels[i] * opt->png_scale);
    }
    free(pixels);
    return FF_OK;
}
