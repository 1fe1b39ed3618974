/* tiledjson.c - Tiled maps and tilesets in JSON; see tiledjson.h.
 *
 * libjansson parses the whole document (duplicate keys refused, nesting
 * depth bounded by the library), and this file walks the tree: the keys
 * of Tiled's JSON map format 1.2 and later.  Jansson keeps no positions
 * of values, so a refused value is named by its path in the document
 * (layers[2].data) instead of a line. */
#include "tiledjson.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tiledata.h"

/* Where in the document a walk is, for messages. */
typedef struct {
    ff_tiled *t;
    const char *file;
} walk;

/* The path of element k of array key below parent: "layers[2].data". */
static void at_path(char *dst, size_t cap, const char *parent, const char *key, size_t k)
{
    /* A path too long for cap is cut short: it only names the place. */
    if (snprintf(dst, cap, "%s%s%s[%zu]", parent, parent[0] ? "." : "", key, k) < 0)
        dst[0] = '\0';
}

#define PATH_CAP 192

static ff_status bad(const walk *w, const char *path, const char *key, const char *want)
{
    return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0, "%s%s%s must be %s", path,
                        path[0] ? "." : "", key, want);
}

/* obj[key] as an integer in [lo, hi], or def when absent. */
static ff_status get_int(const walk *w, json_t *obj, const char *path, const char *key,
                         int64_t lo, int64_t hi, int64_t def, int64_t *v)
{
    json_t *j = json_object_get(obj, key);

    *v = def;
    if (!j)
        return FF_OK;
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
        return bad(w, path, key, "an integer in range");
    *v = json_integer_value(j);
    return FF_OK;
}

static ff_status get_real(const walk *w, json_t *obj, const char *path, const char *key,
                          double *v)
{
    json_t *j = json_object_get(obj, key);

    *v = 0;
    if (!j)
        return FF_OK;
    if (!json_is_number(j))
        return bad(w, path, key, "a number");
    *v = json_number_value(j);
    return FF_OK;
}

static ff_status get_str(const walk *w, json_t *obj, const char *path, const char *key,
                         const char *def, const char **v)
{
    json_t *j = json_object_get(obj, key);

    *v = def;
    if (!j)
        return FF_OK;
    if (!json_is_string(j))
        return bad(w, path, key, "a string");
    *v = json_string_value(j);
    return FF_OK;
}

static ff_status get_bool(const walk *w, json_t *obj, const char *path, const char *key,
                          int def, int *v)
{
    json_t *j = json_object_get(obj, key);

    *v = def;
    if (!j)
        return FF_OK;
    if (!json_is_boolean(j))
        return bad(w, path, key, "true or false");
    *v = json_is_true(j);
    return FF_OK;
}

/* The array obj[key] (NULL when absent). */
static ff_status get_array(const walk *w, json_t *obj, const char *path, const char *key,
                           json_t **v)
{
    *v = json_object_get(obj, key);
    if (*v && !json_is_array(*v)) {
        if (json_is_object(*v) && strcmp(key, "properties") == 0)
            return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0,
                                "%s: properties as an object are Tiled's format before 1.2: "
                                "save the map again with a newer Tiled", path[0] ? path : "map");
        return bad(w, path, key, "an array");
    }
    return FF_OK;
}

/* Property k of the properties array props, as the convention takes it. */
static ff_status property(const walk *w, json_t *prop, const char *path, ff_tiled_prop *p)
{
    const char *type;
    json_t *value;
    ff_status st;

    if (!json_is_object(prop))
        return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object", path);
    if ((st = get_str(w, prop, path, "name", NULL, &p->name)) != FF_OK ||
        (st = get_str(w, prop, path, "type", "string", &type)) != FF_OK)
        return st;
    if (!p->name)
        return bad(w, path, "name", "given");
    value = json_object_get(prop, "value");
    p->kind = FF_TILED_OTHER;
    if (strcmp(type, "string") == 0 && (!value || json_is_string(value))) {
        p->kind = FF_TILED_STRING;
        p->text = value ? json_string_value(value) : "";
    } else if ((strcmp(type, "int") == 0 || strcmp(type, "float") == 0) && json_is_number(value)) {
        p->kind = FF_TILED_NUMBER;
        p->number = json_number_value(value);
    } else if (strcmp(type, "bool") == 0 && json_is_boolean(value)) {
        p->kind = FF_TILED_BOOL;
        p->boolean = json_is_true(value);
    } else if (!strcmp(type, "string") || !strcmp(type, "int") || !strcmp(type, "float") ||
               !strcmp(type, "bool")) {
        return bad(w, path, "value", "of the property's type");
    }
    return FF_OK;
}

/* The "tiles" of a tileset object and their properties. */
static ff_status tileset_body(const walk *w, ff_tiled_tileset *set, json_t *obj, const char *path)
{
    ff_tiled *t = w->t;
    json_t *tiles, *tile;
    const char *name;
    int64_t count;
    size_t k, j;
    char where[PATH_CAP];
    ff_status st;

    if (!json_is_object(obj))
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object",
                            path[0] ? path : "the tileset");
    if (json_object_get(obj, "tileproperties"))
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                            "%s: tileproperties are Tiled's format before 1.2: save the "
                            "tileset again with a newer Tiled", path[0] ? path : "tileset");
    if ((st = get_str(w, obj, path, "name", "", &name)) != FF_OK ||
        (st = get_int(w, obj, path, "tilecount", 0, INT64_MAX, -1, &count)) != FF_OK ||
        (st = ff_tiled_tileset_info(t, set, name, count, w->file, 0)) != FF_OK ||
        (st = get_array(w, obj, path, "tiles", &tiles)) != FF_OK)
        return st;
    json_array_foreach(tiles, k, tile) {
        json_t *props, *prop;
        ff_tiled_tile *tt;
        int64_t id;
        at_path(where, sizeof where, path, "tiles", k);
        if (!json_is_object(tile))
            return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object", where);
        if ((st = get_int(w, tile, where, "id", 0, INT64_MAX, -1, &id)) != FF_OK)
            return st;
        if (id < 0)
            return bad(w, where, "id", "given");
        if (!(tt = ff_tiled_tile_add(t, set, id, w->file, 0)) ||
            (st = get_array(w, tile, where, "properties", &props)) != FF_OK)
            return tt ? st : t->err->status;
        json_array_foreach(props, j, prop) {
            ff_tiled_prop p;
            char ppath[PATH_CAP];
            at_path(ppath, sizeof ppath, where, "properties", j);
            if ((st = property(w, prop, ppath, &p)) != FF_OK ||
                (st = ff_tiled_tile_property(t, set, tt, &p, w->file, 0)) != FF_OK)
                return st;
        }
    }
    return FF_OK;
}

static ff_status tilesets(const walk *w, json_t *arr)
{
    json_t *ts;
    size_t k;
    ff_status st;

    json_array_foreach(arr, k, ts) {
        char path[PATH_CAP];
        int64_t first;
        const char *source;
        ff_tiled_tileset *set;
        at_path(path, sizeof path, "", "tilesets", k);
        if (!json_is_object(ts))
            return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object", path);
        if ((st = get_int(w, ts, path, "firstgid", 1, ~FF_TILED_FLAG_BITS, 0, &first)) != FF_OK ||
            (st = get_str(w, ts, path, "source", NULL, &source)) != FF_OK)
            return st;
        if (first == 0)
            return bad(w, path, "firstgid", "given");
        if (!(set = ff_tiled_tileset_add(w->t, first, 0)))
            return w->t->err->status;
        st = source ? ff_tiled_external(w->t, set, source, 0) : tileset_body(w, set, ts, path);
        if (st != FF_OK)
            return st;
    }
    return FF_OK;
}

static ff_status tile_layer(const walk *w, json_t *layer, const char *path, int visible)
{
    ff_tiled *t = w->t;
    const char *name, *encoding, *compression;
    int64_t lw, lh;
    json_t *data;
    int counts;
    ff_status st;

    if ((st = get_str(w, layer, path, "name", "", &name)) != FF_OK ||
        (st = get_int(w, layer, path, "width", 0, INT64_MAX, -1, &lw)) != FF_OK ||
        (st = get_int(w, layer, path, "height", 0, INT64_MAX, -1, &lh)) != FF_OK ||
        (st = get_str(w, layer, path, "encoding", "csv", &encoding)) != FF_OK ||
        (st = get_str(w, layer, path, "compression", "", &compression)) != FF_OK)
        return st;
    if (json_object_get(layer, "chunks"))
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                            "%s: chunks belong to infinite maps: this reads finite ones", path);
    if ((st = ff_tiled_layer(t, name, visible, lw, lh, 0, &counts)) != FF_OK || !counts)
        return st;
    data = json_object_get(layer, "data");
    if (json_is_string(data))
        return ff_tiled_data(t, encoding, compression, json_string_value(data),
                             json_string_length(data), 0);
    if (!json_is_array(data))
        return bad(w, path, "data", "an array of gids or a base64 string");
    if (strcmp(encoding, "csv") != 0 || compression[0])
        return bad(w, path, "data", "a base64 string with that encoding");
    if (json_array_size(data) != (size_t)t->w * (size_t)t->h)
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                            "%s has %zu tiles, the map %dx%d cells", path, json_array_size(data),
                            t->w, t->h);
    if ((st = ff_tiled_layer_ready(t, json_array_size(data), 0)) != FF_OK)
        return st;
    {
        size_t k;
        json_t *gid;
        json_array_foreach(data, k, gid) {
            if (!json_is_integer(gid) || json_integer_value(gid) < 0 ||
                json_integer_value(gid) > 0xFFFFFFFF) {
                char where[PATH_CAP];
                at_path(where, sizeof where, path, "data", k);
                return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                                    "%s must be a gid (0 to 4294967295)", where);
            }
            ff_tiled_put(t, k, (uint32_t)json_integer_value(gid));
        }
    }
    return FF_OK;
}

static ff_status object_layer(const walk *w, json_t *layer, const char *path)
{
    json_t *objects, *obj;
    size_t k;
    ff_status st;

    if ((st = get_array(w, layer, path, "objects", &objects)) != FF_OK)
        return st;
    json_array_foreach(objects, k, obj) {
        char where[PATH_CAP];
        const char *cls, *type, *shape = "rectangle";
        double x, y, ow, oh, rot;
        int64_t id;
        int visible;
        at_path(where, sizeof where, path, "objects", k);
        if (!json_is_object(obj))
            return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object", where);
        /* Tiled 1.9 wrote "class", the others "type". */
        if ((st = get_str(w, obj, where, "type", "", &type)) != FF_OK ||
            (st = get_str(w, obj, where, "class", type, &cls)) != FF_OK ||
            (st = get_bool(w, obj, where, "visible", 1, &visible)) != FF_OK ||
            (st = get_int(w, obj, where, "id", INT64_MIN, INT64_MAX, 0, &id)) != FF_OK ||
            (st = get_real(w, obj, where, "x", &x)) != FF_OK ||
            (st = get_real(w, obj, where, "y", &y)) != FF_OK ||
            (st = get_real(w, obj, where, "width", &ow)) != FF_OK ||
            (st = get_real(w, obj, where, "height", &oh)) != FF_OK ||
            (st = get_real(w, obj, where, "rotation", &rot)) != FF_OK)
            return st;
        if (!visible)
            continue;
        if (json_is_true(json_object_get(obj, "point")))
            shape = "point";
        else if (json_is_true(json_object_get(obj, "ellipse")))
            shape = "ellipse";
        else if (json_object_get(obj, "polygon"))
            shape = "polygon";
        else if (json_object_get(obj, "polyline"))
            shape = "polyline";
        else if (json_object_get(obj, "text"))
            shape = "text";
        else if (json_object_get(obj, "gid"))
            shape = "tile";
        if ((st = ff_tiled_object(w->t, cls, shape, (long)id, x, y, ow, oh, rot, w->file, 0)) != FF_OK)
            return st;
    }
    return FF_OK;
}

/* The layers of arr, bottom first, groups descended into; visible is
 * whether the groups above are. */
static ff_status layers(const walk *w, json_t *arr, const char *parent, int visible)
{
    json_t *layer;
    size_t k;
    ff_status st;

    json_array_foreach(arr, k, layer) {
        char path[PATH_CAP];
        const char *type;
        int shown;
        json_t *sub;
        at_path(path, sizeof path, parent, "layers", k);
        if (!json_is_object(layer))
            return ff_error_set(w->t->err, FF_EINPUT, w->file, 0, 0, "%s must be an object", path);
        if ((st = get_str(w, layer, path, "type", "", &type)) != FF_OK ||
            (st = get_bool(w, layer, path, "visible", 1, &shown)) != FF_OK)
            return st;
        shown = shown && visible;
        if (strcmp(type, "tilelayer") == 0)
            st = tile_layer(w, layer, path, shown);
        else if (strcmp(type, "objectgroup") == 0)
            st = shown ? object_layer(w, layer, path) : FF_OK;
        else if (strcmp(type, "group") == 0)
            st = get_array(w, layer, path, "layers", &sub) != FF_OK ? w->t->err->status
                 : layers(w, sub, path, shown);
        else
            st = FF_OK;  /* image layers, and kinds to come: nothing of cells */
        if (st != FF_OK)
            return st;
    }
    return FF_OK;
}

static ff_status map(const walk *w, json_t *root, ff_grid *g)
{
    ff_tiled *t = w->t;
    const char *type, *orientation;
    int64_t mw, mh, tw, th;
    int infinite;
    json_t *props, *prop, *sets, *lays;
    size_t k;
    ff_status st;

    if (!json_is_object(root))
        return ff_error_set(t->err, FF_EINPUT, w->file, 1, 1, "a JSON map must be an object");
    if ((st = get_str(w, root, "", "type", "map", &type)) != FF_OK)
        return st;
    if (strcmp(type, "map") != 0)
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                            "a JSON file of type '%.20s', not a Tiled map", type);
    if (!json_object_get(root, "layers") || !json_object_get(root, "tilesets"))
        return ff_error_set(t->err, FF_EINPUT, w->file, 0, 0,
                            "a JSON file that is not a Tiled map (no 'layers' and 'tilesets')");
    if ((st = get_str(w, root, "", "orientation", "orthogonal", &orientation)) != FF_OK ||
        (st = get_bool(w, root, "", "infinite", 0, &infinite)) != FF_OK ||
        (st = get_int(w, root, "", "width", INT64_MIN, INT64_MAX, 0, &mw)) != FF_OK ||
        (st = get_int(w, root, "", "height", INT64_MIN, INT64_MAX, 0, &mh)) != FF_OK ||
        (st = get_int(w, root, "", "tilewidth", INT64_MIN, INT64_MAX, 0, &tw)) != FF_OK ||
        (st = get_int(w, root, "", "tileheight", INT64_MIN, INT64_MAX, 0, &th)) != FF_OK ||
        (st = ff_tiled_header(t, orientation, infinite, mw, mh, (double)tw, (double)th, 0)) != FF_OK ||
        (st = get_array(w, root, "", "properties", &props)) != FF_OK ||
        (st = get_array(w, root, "", "tilesets", &sets)) != FF_OK ||
        (st = get_array(w, root, "", "layers", &lays)) != FF_OK)
        return st;
    json_array_foreach(props, k, prop) {
        ff_tiled_prop p;
        char path[PATH_CAP];
        at_path(path, sizeof path, "", "properties", k);
        if ((st = property(w, prop, path, &p)) != FF_OK ||
            (st = ff_tiled_map_property(t, &p, 0)) != FF_OK)
            return st;
    }
    if ((st = tilesets(w, sets)) != FF_OK || (st = layers(w, lays, "", 1)) != FF_OK)
        return st;
    return ff_tiled_finish(t, g);
}

/* Set when jansson's allocation fails during a parse: jansson itself
 * reports some of those as a syntax error (a string it could not store is
 * "string expected"), or with no text at all. */
static _Thread_local int json_out_of_memory;

static void *json_alloc(size_t size)
{
    void *p = malloc(size);
    if (!p)
        json_out_of_memory = 1;
    return p;
}

/* The document's tree, or NULL with err set: FF_ENOMEM when memory ran
 * out, else FF_EINPUT with the place jansson gives. */
static json_t *load(const unsigned char *data, size_t size, const char *file, ff_error *err,
                    ff_status *st)
{
    json_error_t je;
    json_t *root;

    json_set_alloc_funcs(json_alloc, free);
    json_out_of_memory = 0;
    root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
    if (root && !json_out_of_memory)
        return root;
    json_decref(root);  /* jansson may have dropped what it could not store */
    if (json_out_of_memory || json_error_code(&je) == json_error_out_of_memory)
        *st = ff_error_set(err, FF_ENOMEM, file, 0, 0, "out of memory for the JSON document");
    else
        *st = ff_error_set(err, FF_EINPUT, file, je.line > 0 ? je.line : 0,
                           je.column > 0 ? je.column : 0, "bad JSON: %s", je.text);
    return NULL;
}

ff_status ff_tiled_json_map(ff_tiled *t, const unsigned char *data, size_t size, ff_grid *g)
{
    walk w;
    ff_status st;
    json_t *root = load(data, size, t->name, t->err, &st);

    if (!root)
        return st;
    w.t = t;
    w.file = t->name;
    st = map(&w, root, g);
    json_decref(root);
    return st;
}

ff_status ff_tiled_json_tileset(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data,
                                size_t size, const char *file)
{
    ff_status st;
    json_t *root = load(data, size, file, t->err, &st);
    const char *type;
    walk w;

    if (!root)
        return st;
    w.t = t;
    w.file = file;
    if ((st = get_str(&w, root, "", "type", "tileset", &type)) == FF_OK && strcmp(type, "tileset"))
        st = ff_error_set(t->err, FF_EINPUT, file, 0, 0, "a JSON file of type '%.20s', not a tileset",
                          type);
    if (st == FF_OK)
        st = tileset_body(&w, set, root, "");
    json_decref(root);
    return st;
}
