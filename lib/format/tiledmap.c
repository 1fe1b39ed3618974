/* tiledmap.c - a Tiled map as a grid: which reader, JSON or XML, reads the
 * map and each of its external tilesets; see tiledmap.h.  The readers
 * know only tiled.h, and reach each other's tilesets through
 * t->read_tileset, set here. */
#include "tiledmap.h"

#include "tiled.h"
#include "tiledjson.h"
#include "tiledxml.h"

/* The first non-blank byte of data, or -1. */
static int first_byte(const unsigned char *data, size_t size)
{
    size_t k = 0;

    while (k < size && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n'))
        k++;
    return k < size ? data[k] : -1;
}

int ff_map_is_tiled(const unsigned char *data, size_t size)
{
    int c = first_byte(data, size);

    return c == '{' || c == '<';
}

static ff_status read_tileset(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data,
                              size_t size, const char *file)
{
    int c = first_byte(data, size);

    if (c == '{')
        return ff_tiled_json_tileset(t, set, data, size, file);
    if (c == '<')
        return ff_tiled_xml_tileset(t, set, data, size, file);
    return ff_error_set(t->err, FF_EINPUT, file, 1, 1,
                        "not a Tiled tileset: expected JSON (.tsj) or XML (.tsx)");
}

/* Make a message one line of printable bytes: names and values quoted
 * from a Tiled file may hold anything. */
static void one_line(char *msg)
{
    for (; *msg; msg++)
        if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
            *msg = '?';
}

ff_status ff_map_parse_tiled(const unsigned char *data, size_t size, const char *name,
                             const ff_map_options *opt, ff_grid *g, ff_error *err)
{
    ff_tiled t;
    ff_status st;

    ff_grid_init(g);
    ff_tiled_init(&t, name, opt, err);
    t.read_tileset = read_tileset;
    st = first_byte(data, size) == '{' ? ff_tiled_json_map(&t, data, size, g)
                                       : ff_tiled_xml_map(&t, data, size, g);
    if (st != FF_OK) {
        one_line(t.err->msg);
        ff_grid_free(g);
    }
    ff_tiled_free(&t);
    return st;
}
