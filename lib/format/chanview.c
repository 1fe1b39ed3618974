/* chanview.c - a field's channels as one list; see chanview.h. */
#include "chanview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "realfmt.h"

static ff_channel_view view(const char *name, ff_type type, int lanes, const void *data,
                            int has_id, uint64_t id)
{
    ff_channel_view v;

    v.name = name;
    v.type = type;
    v.lanes = lanes;
    v.data = data;
    v.has_id = has_id;
    v.id = id;
    return v;
}

/* The channels of f that ff_field has a member for, into v (room for 7);
 * returns how many. */
static size_t known_views(const ff_field *f, ff_channel_view *v)
{
    const ff_grid *g = &f->grid;
    size_t n = 0;

    /* cost, oneway and class are covered by 'id map'; heading_distance by
     * 'id distance'. */
    v[n++] = view("cost", FF_T_F32, 1, g->cost, 0, 0);
    if (g->oneway)
        v[n++] = view("oneway", FF_T_U8, 1, g->oneway, 0, 0);
    if (g->terrain)
        v[n++] = view("class", FF_T_U8, 1, g->terrain, 0, 0);
    if (f->distance)
        v[n++] = view("distance", FF_T_F64, 1, f->distance, 1, f->distance_id);
    if (f->direction)
        v[n++] = view("direction", FF_T_U8, 1, f->direction, 1, f->direction_id);
    if (f->turn && f->heading_distance)
        v[n++] = view("heading_distance", FF_T_F64, 8, f->heading_distance, 0, 0);
    if (f->turn && f->heading_direction)
        v[n++] = view("heading_direction", FF_T_U8, 8, f->heading_direction, 1,
                      f->heading_direction_id);
    return n;
}

static ff_channel_view extra_view(const ff_channel *ch)
{
    return view(ch->name, ch->type, ff_channel_lanes(ch), ch->data, ch->has_id, ch->id);
}

size_t ff_field_channel_count(const ff_field *f)
{
    ff_channel_view v[7];

    return known_views(f, v) + f->nextra;
}

void ff_field_channels(const ff_field *f, ff_channel_view *out)
{
    size_t n = known_views(f, out), k;

    for (k = 0; k < f->nextra; k++)
        out[n + k] = extra_view(&f->extra[k]);
}

int ff_field_find_channel(const ff_field *f, const char *name, ff_channel_view *out)
{
    ff_channel_view v[7];
    size_t n = known_views(f, v), k;

    for (k = 0; k < n; k++)
        if (strcmp(v[k].name, name) == 0) {
            *out = v[k];
            return 1;
        }
    for (k = 0; k < f->nextra; k++)
        if (strcmp(f->extra[k].name, name) == 0) {
            *out = extra_view(&f->extra[k]);
            return 1;
        }
    return 0;
}

double ff_channel_value(const ff_channel_view *v, size_t k)
{
    switch (v->type) {
    case FF_T_U8: return ((const uint8_t *)v->data)[k];
    case FF_T_U16: return ((const uint16_t *)v->data)[k];
    case FF_T_U32: return ((const uint32_t *)v->data)[k];
    case FF_T_I32: return ((const int32_t *)v->data)[k];
    case FF_T_F32: return ((const float *)v->data)[k];
    case FF_T_F64: return ((const double *)v->data)[k];
    }
    return 0;
}

size_t ff_format_value(ff_type t, double value, char *buf, size_t cap)
{
    int len;

    if (t == FF_T_F32)
        return ff_format_exact_float((float)value, buf, cap);
    if (t == FF_T_F64)
        return ff_format_exact(value, buf, cap);
    len = snprintf(buf, cap, "%.0f", value);
    return len < 0 ? 0 : (size_t)len;
}

void ff_field_channel_names(const ff_field *f, char *buf, size_t cap)
{
    size_t n = ff_field_channel_count(f), k, len = 0;
    ff_channel_view *all = malloc(n * sizeof *all);

    buf[0] = '\0';
    if (!all)
        return;
    ff_field_channels(f, all);
    for (k = 0; k < n && len + 40 < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", k ? ", " : "", all[k].name);
    if (k < n)
        snprintf(buf + len, cap - len, ", ...");
    free(all);
}
