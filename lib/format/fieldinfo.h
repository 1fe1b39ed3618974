/* fieldinfo.h - a description of an ff stream without drawing it (man 1
 * ffinfo): for each field its geometry and rules, its goals and spawns,
 * each channel's type, how many of its values are finite and their least
 * and greatest, and its ids, in a line-oriented text made for grep and
 * awk (the format is in ffinfo(1)).
 */
#ifndef FF_FIELDINFO_H
#define FF_FIELDINFO_H

#include <stdio.h>

#include "chanview.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The figures of one channel. */
typedef struct {
    char name[32];
    ff_type type;
    int lanes;         /* 1, 2 for a TYPEx2 channel, 8 for TYPEx8 */
    uint64_t values;   /* w*h*lanes */
    uint64_t finite;   /* values that are finite (every value of an
                          integer channel) */
    double min, max;   /* the least and greatest finite value; 0 when
                          finite is 0 */
    int has_id;        /* 1: the stream gives the channel an id */
    uint64_t id;       /* with has_id: that id */
} ff_channel_stats;

/* The figures of view's channel of cells cells (w*h). */
void ff_channel_stats_of(const ff_channel_view *view, size_t cells, ff_channel_stats *out);

/* What ffinfo says of one field. */
typedef struct {
    char name[64];                 /* "" for a field without a name */
    int32_t w, h;
    double cell_size, origin_x, origin_y, radius;
    int moves;
    ff_corners corners;
    int turn;                      /* 1: a turn-cost field */
    double turn_cost;              /* with turn */
    int any_angle;                 /* 1: an any-angle field */
    size_t ngoals, nspawns;
    uint64_t map_id;
    int map_id_read;               /* 1: the stream had 'id map' */
    size_t nchannels;
    ff_channel_stats *channels;    /* nchannels, in stream order; owned */
} ff_field_info;

/* Describe f into *out (ff_field_info_free releases it).  Returns FF_OK
 * or FF_ENOMEM. */
ff_status ff_field_info_of(const ff_field *f, ff_field_info *out, ff_error *err);

void ff_field_info_free(ff_field_info *info);

/* Write the block of info, the index-th field of its stream (from 1), in
 * the format of ffinfo(1).  Returns FF_OK or FF_EIO. */
ff_status ff_field_info_write(FILE *out, size_t index, const ff_field_info *info,
                              ff_error *err);

/* The same as one JSON object (RFC 8259) of the same figures: "field",
 * "name" (null for none), "size" [w, h], "cell", "origin" [x, y],
 * "moves", "corners", "radius", "turn_cost" (null without), "any_angle"
 * (true or false), "goals",
 * "spawns", "channels" (each "name", "type", "lanes", "values", "finite",
 * "min" and "max" (null when none is finite), "id" (hex, or null)),
 * "map_id" (hex) and "map_id_read" (true or false). */
ff_status ff_field_info_write_json(FILE *out, size_t index, const ff_field_info *info,
                                   ff_error *err);

/* ffinfo: read every field of r and write the block of each to out, or
 * with name not NULL of each field so named (refused when there is none).
 * Nothing is written unless the whole input reads well: a stale or
 * malformed stream gives the reader's error.  Refuses an empty input. */
ff_status ff_describe_stream(ff_reader *r, const char *name, FILE *out, ff_error *err);

/* The same as one JSON object, {"fields": [...]}, each field's object as
 * ff_field_info_write_json writes it (ffinfo --json). */
ff_status ff_describe_stream_json(ff_reader *r, const char *name, FILE *out, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
