/* fielddata.c - the ff stream's data model: value types, fields and the
 * map id; see fielddata.h and man 5 ff. */
#include "fielddata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const type_names[] = { "u8", "u16", "u32", "i32", "f32", "f64" };
static const size_t type_sizes[] = { 1, 2, 4, 4, 4, 8 };

const char *ff_type_name(ff_type t)
{
    return type_names[t];
}

size_t ff_type_size(ff_type t)
{
    return type_sizes[t];
}

const float *ff_field_vectors(const ff_field *f)
{
    size_t k;

    for (k = 0; f->any_angle && k < f->nextra; k++)
        if (strcmp(f->extra[k].name, "vector") == 0 && f->extra[k].type == FF_T_F32 &&
            f->extra[k].lanes == 2)
            return f->extra[k].data;
    return NULL;
}

ff_channel *ff_field_put_extra(ff_field *f, const char *name, ff_type t, int lanes, void *data)
{
    ff_channel *ch = NULL, *grown;
    size_t k;

    for (k = 0; k < f->nextra; k++)
        if (strcmp(f->extra[k].name, name) == 0)
            ch = &f->extra[k];
    if (ch) {
        free(ch->data);
    } else {
        if (!(grown = realloc(f->extra, (f->nextra + 1) * sizeof *grown))) {
            free(data);
            return NULL;
        }
        f->extra = grown;
        ch = &f->extra[f->nextra++];
        snprintf(ch->name, sizeof ch->name, "%s", name);
    }
    ch->data = data;
    ch->type = t;
    ch->lanes = lanes;
    ch->has_id = 0;
    ch->id = 0;
    return ch;
}

int ff_channel_lanes(const ff_channel *ch)
{
    return ch->lanes == 8 || ch->lanes == 2 ? ch->lanes : 1;
}

const char *ff_lanes_suffix(int lanes)
{
    return lanes == 8 ? "x8" : lanes == 2 ? "x2" : "";
}

void ff_field_init(ff_field *f)
{
    memset(f, 0, sizeof *f);
    ff_grid_init(&f->grid);
}

void ff_field_free(ff_field *f)
{
    size_t k;

    ff_grid_free(&f->grid);
    free(f->distance);
    free(f->direction);
    free(f->heading_distance);
    free(f->heading_direction);
    for (k = 0; k < f->nextra; k++)
        free(f->extra[k].data);
    free(f->extra);
    ff_field_init(f);
}

uint64_t ff_value_bits(ff_type t, const void *data, size_t k)
{
    uint64_t v = 0;
    uint32_t u;

    switch (t) {
    case FF_T_U8: v = ((const uint8_t *)data)[k]; break;
    case FF_T_U16: v = ((const uint16_t *)data)[k]; break;
    case FF_T_U32: v = ((const uint32_t *)data)[k]; break;
    case FF_T_I32: memcpy(&u, (const int32_t *)data + k, 4); v = u; break;
    case FF_T_F32: memcpy(&u, (const float *)data + k, 4); v = u; break;
    case FF_T_F64: memcpy(&v, (const double *)data + k, 8); break;
    }
    return v;
}
