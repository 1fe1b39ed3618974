/* mapopts.c - the map readers' default options; see mapopts.h. */
#include <stddef.h>

#include "mapopts.h"

void ff_map_options_init(ff_map_options *o)
{
    o->max_cells = 0;
    o->png_scale = 1.0;
    o->path = NULL;
    o->layer = NULL;
}
