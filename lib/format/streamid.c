/* streamid.c - the content-hash ids of the ff stream (man 5 ff, "Ids"):
 * the distance id and the id of each derived channel; see streamid.h. */
#include "streamid.h"

#include <string.h>

#include "hash.h"
#include "tilehash.h"

/* The plane of w*h cells of lanes values of type t at data in f. */
static uint64_t plane_hash(const ff_field *f, const void *data, size_t elem_size, int lanes)
{
    ff_plane p;

    p.values = data;
    p.w = f->grid.w;
    p.h = f->grid.h;
    p.elem_size = elem_size;
    p.lanes = lanes;
    return ff_plane_hash(&p);
}

static uint64_t distance_id(const ff_field *f)
{
    size_t k;
    ff_hash s;

    ff_hash_init(&s);
    ff_hash_u64(&s, f->map_id);
    ff_hash_u64(&s, (uint64_t)f->grid.ngoals);
    for (k = 0; k < f->grid.ngoals; k++)
        ff_hash_u32(&s, f->grid.goals[k]);
    ff_hash_u64(&s, plane_hash(f, f->distance, 8, 1));
    if (f->any_angle)
        ff_hash_bytes(&s, "any-angle", 9);
    if (f->turn) {
        uint64_t bits;
        memcpy(&bits, &f->turn_cost, 8);
        ff_hash_u64(&s, bits);
        ff_hash_bytes(&s, f->heading_distance ? "\1" : "\0", 1);
        if (f->heading_distance)
            ff_hash_u64(&s, plane_hash(f, f->heading_distance, 8, 8));
    }
    return ff_hash_final(&s);
}

uint64_t ff_channel_id_lanes(const ff_field *f, const char *name, ff_type t, int lanes,
                             const void *data)
{
    size_t len = strlen(name);
    ff_hash s;

    lanes = lanes == 8 || lanes == 2 ? lanes : 1;
    ff_hash_init(&s);
    ff_hash_u64(&s, f->distance ? f->distance_id : f->map_id);
    ff_hash_u32(&s, (uint32_t)len);
    ff_hash_bytes(&s, name, len);
    /* an x8 type's code is 8 more than its base type's, an x2 type's 16 */
    ff_hash_u32(&s, (uint32_t)t + (lanes == 8 ? 8u : lanes == 2 ? 16u : 0u));
    ff_hash_u64(&s, plane_hash(f, data, ff_type_size(t), lanes));
    return ff_hash_final(&s);
}

uint64_t ff_channel_id(const ff_field *f, const char *name, ff_type t, const void *data)
{
    return ff_channel_id_lanes(f, name, t, 1, data);
}

void ff_field_update_derived_ids(ff_field *f)
{
    size_t k;

    if (f->direction)
        f->direction_id = ff_channel_id(f, "direction", FF_T_U8, f->direction);
    if (f->turn && f->heading_direction)
        f->heading_direction_id =
            ff_channel_id_lanes(f, "heading_direction", FF_T_U8, 8, f->heading_direction);
    for (k = 0; k < f->nextra; k++)
        if (f->extra[k].has_id)
            f->extra[k].id = ff_channel_id_lanes(f, f->extra[k].name, f->extra[k].type,
                                                 f->extra[k].lanes, f->extra[k].data);
}

void ff_field_update_distance_id(ff_field *f)
{
    if (f->distance)
        f->distance_id = distance_id(f);
    ff_field_update_derived_ids(f);
}

void ff_field_update_ids(ff_field *f)
{
    f->map_id = ff_grid_id(&f->grid);
    ff_field_update_distance_id(f);
}
