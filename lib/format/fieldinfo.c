/* fieldinfo.c - describing an ff stream; see fieldinfo.h and man 1 ffinfo. */
#include "fieldinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "realfmt.h"

void ff_channel_stats_of(const ff_channel_view *view, size_t cells, ff_channel_stats *out)
{
    size_t n = cells * (size_t)view->lanes, k;
    double lo = 0, hi = 0;
    uint64_t finite = 0;

    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", view->name);
    out->type = view->type;
    out->lanes = view->lanes;
    out->values = n;
    out->has_id = view->has_id;
    out->id = view->id;
    for (k = 0; k < n; k++) {
        double v = ff_channel_value(view, k);
        if (!isfinite(v))
            continue;
        if (finite == 0 || v < lo)
            lo = v;
        if (finite == 0 || v > hi)
            hi = v;
        finite++;
    }
    out->finite = finite;
    out->min = lo;
    out->max = hi;
}

ff_status ff_field_info_of(const ff_field *f, ff_field_info *out, ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t cells = (size_t)g->w * (size_t)g->h, n = ff_field_channel_count(f), k;
    ff_channel_view *views = malloc(n * sizeof *views);

    memset(out, 0, sizeof *out);
    if (!views || !(out->channels = calloc(n, sizeof *out->channels))) {
        free(views);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    }
    snprintf(out->name, sizeof out->name, "%s", f->name);
    out->w = g->w;
    out->h = g->h;
    out->cell_size = g->cell_size;
    out->origin_x = g->origin_x;
    out->origin_y = g->origin_y;
    out->radius = g->radius;
    out->moves = g->moves;
    out->corners = g->corners;
    out->turn = f->turn;
    out->turn_cost = f->turn_cost;
    out->any_angle = f->any_angle;
    out->ngoals = g->ngoals;
    out->nspawns = g->nspawns;
    out->map_id = f->map_id;
    out->map_id_read = f->map_id_read;
    ff_field_channels(f, views);
    for (k = 0; k < n; k++)
        ff_channel_stats_of(&views[k], cells, &out->channels[k]);
    out->nchannels = n;
    free(views);
    return FF_OK;
}

void ff_field_info_free(ff_field_info *info)
{
    free(info->channels);
    memset(info, 0, sizeof *info);
}

static const char *real(double v, char *buf)
{
    ff_format_exact(v, buf, FF_REAL_TEXT_MAX);
    return buf;
}

ff_status ff_field_info_write(FILE *out, size_t index, const ff_field_info *info,
                              ff_error *err)
{
    char a[FF_REAL_TEXT_MAX], b[FF_REAL_TEXT_MAX];
    size_t k;

    fprintf(out, "field %zu %s\n", index, info->name[0] ? info->name : "-");
    fprintf(out, "size %d %d\n", (int)info->w, (int)info->h);
    fprintf(out, "cell %s\n", real(info->cell_size, a));
    fprintf(out, "origin %s %s\n", real(info->origin_x, a), real(info->origin_y, b));
    fprintf(out, "moves %d\ncorners %s\n", info->moves, ff_corners_name(info->corners));
    fprintf(out, "radius %s\n", real(info->radius, a));
    if (info->turn)
        fprintf(out, "turn-cost %s\n", real(info->turn_cost, a));
    if (info->any_angle)
        fprintf(out, "any-angle\n");
    fprintf(out, "goals %zu\nspawns %zu\n", info->ngoals, info->nspawns);
    for (k = 0; k < info->nchannels; k++) {
        const ff_channel_stats *c = &info->channels[k];
        fprintf(out, "channel %s %s%s values %llu finite %llu", c->name, ff_type_name(c->type),
                ff_lanes_suffix(c->lanes), (unsigned long long)c->values,
                (unsigned long long)c->finite);
        if (c->finite == 0)
            fprintf(out, " min - max -\n");
        else {
            ff_format_value(c->type, c->min, a, sizeof a);
            ff_format_value(c->type, c->max, b, sizeof b);
            fprintf(out, " min %s max %s\n", a, b);
        }
    }
    /* The reader refuses an id that does not match its channels, so every
     * id of a stream that was read is "ok"; the map's is the one that a
     * stream may leave out. */
    fprintf(out, "id map %016llx %s\n", (unsigned long long)info->map_id,
            info->map_id_read ? "ok" : "absent");
    for (k = 0; k < info->nchannels; k++)
        if (info->channels[k].has_id)
            fprintf(out, "id %s %016llx ok\n", info->channels[k].name,
                    (unsigned long long)info->channels[k].id);
    if (ferror(out))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}

/* s as a JSON string; names are of letters, digits, "._-", but a
 * quote, a backslash or a control character would be escaped. */
static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}

ff_status ff_field_info_write_json(FILE *out, size_t index, const ff_field_info *info,
                                   ff_error *err)
{
    char a[FF_REAL_TEXT_MAX], b[FF_REAL_TEXT_MAX];
    size_t k;

    fprintf(out, "{\"field\": %zu, \"name\": ", index);
    if (info->name[0])
        json_string(out, info->name);
    else
        fputs("null", out);
    fprintf(out, ", \"size\": [%d, %d], \"cell\": %s", (int)info->w, (int)info->h,
            real(info->cell_size, a));
    fprintf(out, ", \"origin\": [%s, %s]", real(info->origin_x, a), real(info->origin_y, b));
    fprintf(out, ", \"moves\": %d, \"corners\": \"%s\"", info->moves,
            ff_corners_name(info->corners));
    fprintf(out, ", \"radius\": %s, \"turn_cost\": %s, \"any_angle\": %s",
            real(info->radius, a), info->turn ? real(info->turn_cost, b) : "null",
            info->any_angle ? "true" : "false");
    fprintf(out, ", \"goals\": %zu, \"spawns\": %zu,\n  \"channels\": [", info->ngoals,
            info->nspawns);
    for (k = 0; k < info->nchannels; k++) {
        const ff_channel_stats *c = &info->channels[k];
        fprintf(out, "%s\n    {\"name\": ", k ? "," : "");
        json_string(out, c->name);
        fprintf(out, ", \"type\": \"%s\", \"lanes\": %d, \"values\": %llu, \"finite\": %llu",
                ff_type_name(c->type), c->lanes, (unsigned long long)c->values,
                (unsigned long long)c->finite);
        if (c->finite == 0)
            fputs(", \"min\": null, \"max\": null", out);
        else {
            ff_format_value(c->type, c->min, a, sizeof a);
            ff_format_value(c->type, c->max, b, sizeof b);
            fprintf(out, ", \"min\": %s, \"max\": %s", a, b);
        }
        if (c->has_id)
            fprintf(out, ", \"id\": \"%016llx\"}", (unsigned long long)c->id);
        else
            fputs(", \"id\": null}", out);
    }
    fprintf(out, "],\n  \"map_id\": \"%016llx\", \"map_id_read\": %s}",
            (unsigned long long)info->map_id, info->map_id_read ? "true" : "false");
    if (ferror(out))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}

/* ff_describe_stream, in text or (json) as one JSON object. */
static ff_status describe(ff_reader *r, const char *name, int json, FILE *out, ff_error *err)
{
    ff_field_info *infos = NULL, *grown;
    size_t count = 0, cap = 0, shown = 0, k;
    ff_field f;
    ff_status st;

    /* The blocks are written once the whole input has read well (a field
     * is described, then freed: one field at a time is held). */
    while ((st = ff_field_read(r, &f, err)) == FF_OK) {
        if (count == cap) {
            if (!(grown = ff_grow(infos, &cap, count + 1, sizeof *infos, 8))) {
                ff_field_free(&f);
                st = ff_error_set(err, FF_ENOMEM, r->name, 0, 0, "out of memory");
                goto done;
            }
            infos = grown;
        }
        st = ff_field_info_of(&f, &infos[count], err);
        ff_field_free(&f);
        if (st != FF_OK)
            goto done;
        count++;
    }
    if (st != FF_ENOTFOUND)
        goto done;
    if (count == 0) {
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0, "empty input: no ff stream");
        goto done;
    }
    for (k = 0; k < count; k++)
        shown += !name || strcmp(infos[k].name, name) == 0;
    if (shown == 0) {
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                          "no field named '%.64s' among the stream's %zu (--list names them)", name,
                          count);
        goto done;
    }
    st = FF_OK;
    if (json)
        fputs("{\"fields\": [\n", out);
    for (k = 0, shown = 0; k < count && st == FF_OK; k++) {
        if (name && strcmp(infos[k].name, name) != 0)
            continue;
        if (shown++ > 0)
            fputs(json ? ",\n" : "\n", out);
        st = json ? ff_field_info_write_json(out, k + 1, &infos[k], err)
                  : ff_field_info_write(out, k + 1, &infos[k], err);
    }
    if (json && st == FF_OK)
        fputs("\n]}\n", out);
    if (st == FF_OK && fflush(out) != 0)
        st = ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
done:
    for (k = 0; k < count; k++)
        ff_field_info_free(&infos[k]);
    free(infos);
    return st;
}

ff_status ff_describe_stream(ff_reader *r, const char *name, FILE *out, ff_error *err)
{
    return describe(r, name, 0, out, err);
}

ff_status ff_describe_stream_json(ff_reader *r, const char *name, FILE *out, ff_error *err)
{
    return describe(r, name, 1, out, err);
}
