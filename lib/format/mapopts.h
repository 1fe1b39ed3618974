/* mapopts.h - the options every map reader takes. */
#ifndef FF_MAPOPTS_H
#define FF_MAPOPTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t max_cells;  /* refuse maps larger than this; 0 = default */
    double png_scale;    /* cost per grey level of a PNG map (> 0) */
} ff_map_options;

/* The defaults: the default cell limit and a PNG scale of 1. */
void ff_map_options_init(ff_map_options *o);

#ifdef __cplusplus
}
#endif

#endif
