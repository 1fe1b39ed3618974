/* tiledxml.c - Tiled maps (TMX) and tilesets (TSX) in XML; see tiledxml.h.
 *
 * expat reads the document as a stream of elements; a stack of the kinds
 * of the open elements says what each one belongs to.  Entity
 * declarations are refused (Tiled writes none; they are how an XML file
 * makes a small input large), and no external entity is ever loaded.
 * Unknown elements and attributes are skipped, as Tiled's documentation
 * asks of readers. */
#include "tiledxml.h"

#include <errno.h>
#include <expat.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "tiledata.h"

#define MAX_DEPTH 256

/* What an open element is. */
typedef enum {
    K_OTHER, K_MAP, K_TILESET, K_TILE, K_PROPERTIES, K_PROPERTY, K_LAYER, K_DATA,
    K_OBJECTGROUP, K_OBJECT, K_GROUP
} kind;

typedef struct {
    ff_tiled *t;
    XML_Parser p;
    const char *file;
    size_t input_size;
    ff_status st;                 /* the first failure */
    int depth;
    kind stack[MAX_DEPTH];
    int shown[MAX_DEPTH];         /* visible, with the groups above */
    ff_tiled_tileset *set;        /* the tileset being read */
    ff_tiled_tile *tile;          /* its tile being read */
    int counts;                   /* the open tile layer decides cells */
    /* Text being gathered: a data element, or a property's value. */
    char *text;
    size_t len, cap;
    int gather;
    /* The open data element. */
    char encoding[16], compression[16];
    long data_line;
    int xml_tiles;                /* data as <tile gid> elements */
    size_t ntiles;
    /* The open property, whose value may be its text. */
    char prop_name[64], prop_type[16];
    kind prop_owner;              /* the element the property is of */
    int prop_pending;
    long prop_line;
    /* The open object. */
    char obj_class[64];
    const char *obj_shape;
    long obj_id, obj_line;
    double obj_x, obj_y, obj_w, obj_h, obj_rot;
    int obj_visible;
} reader;

static long line_of(reader *r)
{
    return (long)XML_GetCurrentLineNumber(r->p);
}

/* Record the first failure and stop the parser. */
static void stop(reader *r, ff_status st)
{
    if (r->st == FF_OK && st != FF_OK) {
        r->st = st;
        XML_StopParser(r->p, XML_FALSE);
    }
}

static ff_status fail(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Refuse at the parser's place in the document. */
static ff_status fail(reader *r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ff_error_set(r->t->err, FF_EINPUT, r->file, line_of(r),
                        (long)XML_GetCurrentColumnNumber(r->p) + 1, "%s", msg);
}

static const char *attr(const XML_Char **atts, const char *name)
{
    for (; atts[0]; atts += 2)
        if (strcmp(atts[0], name) == 0)
            return atts[1];
    return NULL;
}

/* Attribute name as an integer (def when absent). */
static ff_status int_attr(reader *r, const XML_Char **atts, const char *name, int64_t def,
                          int64_t *v)
{
    const char *s = attr(atts, name);
    char *end;
    long long x;

    *v = def;
    if (!s)
        return FF_OK;
    errno = 0;
    x = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE)
        return fail(r, "attribute %s='%.30s' must be an integer", name, s);
    *v = x;
    return FF_OK;
}

static ff_status real_attr(reader *r, const XML_Char **atts, const char *name, double *v)
{
    const char *s = attr(atts, name);
    char *end;

    *v = 0;
    if (!s)
        return FF_OK;
    *v = strtod(s, &end);
    if (end == s || *end || !isfinite(*v))
        return fail(r, "attribute %s='%.30s' must be a finite number", name, s);
    return FF_OK;
}

/* A 0/1 attribute (visible, infinite). */
static ff_status flag_attr(reader *r, const XML_Char **atts, const char *name, int def, int *v)
{
    const char *s = attr(atts, name);

    *v = def;
    if (!s)
        return FF_OK;
    if (strcmp(s, "0") && strcmp(s, "1"))
        return fail(r, "attribute %s='%.30s' must be 0 or 1", name, s);
    *v = s[0] == '1';
    return FF_OK;
}

static void copy_attr(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

/* The property named r->prop_name of type r->prop_type has value text:
 * give it to the map or to the tile it belongs to. */
static ff_status property_value(reader *r, const char *text)
{
    ff_tiled_prop p;
    kind owner = r->prop_owner;
    const char *type = r->prop_type[0] ? r->prop_type : "string";
    char *end;

    if (owner != K_MAP && !(owner == K_TILE && r->tile))
        return FF_OK;
    p.name = r->prop_name;
    p.kind = FF_TILED_OTHER;
    if (strcmp(type, "string") == 0) {
        p.kind = FF_TILED_STRING;
        p.text = text;
    } else if (strcmp(type, "int") == 0 || strcmp(type, "float") == 0) {
        p.kind = FF_TILED_NUMBER;
        p.number = strtod(text, &end);
        if (end == text || *end)
            return ff_error_set(r->t->err, FF_EINPUT, r->file, r->prop_line, 0,
                                "property '%s': '%.30s' is not a number", r->prop_name, text);
    } else if (strcmp(type, "bool") == 0) {
        p.kind = FF_TILED_BOOL;
        if (strcmp(text, "true") && strcmp(text, "false"))
            return ff_error_set(r->t->err, FF_EINPUT, r->file, r->prop_line, 0,
                                "property '%s': '%.30s' is not true or false", r->prop_name, text);
        p.boolean = text[0] == 't';
    }
    if (owner == K_MAP)
        return ff_tiled_map_property(r->t, &p, r->prop_line);
    return ff_tiled_tile_property(r->t, r->set, r->tile, &p, r->file, r->prop_line);
}

static ff_status start_tileset(reader *r, const XML_Char **atts, int in_map)
{
    int64_t first, count;
    const char *source = attr(atts, "source");
    ff_status st;

    r->tile = NULL;
    if (in_map) {
        if ((st = int_attr(r, atts, "firstgid", 0, &first)) != FF_OK)
            return st;
        if (!(r->set = ff_tiled_tileset_add(r->t, first, line_of(r))))
            return r->t->err->status;
        if (source)
            return ff_tiled_external(r->t, r->set, source, line_of(r));
    }
    if ((st = int_attr(r, atts, "tilecount", -1, &count)) != FF_OK)
        return st;
    return ff_tiled_tileset_info(r->t, r->set, attr(atts, "name") ? attr(atts, "name") : "", count,
                                 r->file, line_of(r));
}

static ff_status start_data(reader *r, const XML_Char **atts)
{
    copy_attr(r->encoding, sizeof r->encoding, attr(atts, "encoding"));
    copy_attr(r->compression, sizeof r->compression, attr(atts, "compression"));
    r->data_line = line_of(r);
    r->len = 0;
    r->ntiles = 0;
    r->xml_tiles = !r->encoding[0] && !r->compression[0];
    if (!r->counts)
        return FF_OK;
    if (r->xml_tiles)  /* each tile an element of 7 bytes at least */
        return ff_tiled_layer_ready(r->t, r->input_size / 7, r->data_line);
    r->gather = 1;
    return FF_OK;
}

static ff_status start_object(reader *r, const XML_Char **atts)
{
    const char *cls = attr(atts, "type");
    int64_t id;
    ff_status st;

    if (!cls)
        cls = attr(atts, "class");  /* Tiled 1.9 */
    copy_attr(r->obj_class, sizeof r->obj_class, cls);
    r->obj_shape = attr(atts, "gid") ? "tile" : "rectangle";
    r->obj_line = line_of(r);
    if ((st = int_attr(r, atts, "id", 0, &id)) != FF_OK ||
        (st = real_attr(r, atts, "x", &r->obj_x)) != FF_OK ||
        (st = real_attr(r, atts, "y", &r->obj_y)) != FF_OK ||
        (st = real_attr(r, atts, "width", &r->obj_w)) != FF_OK ||
        (st = real_attr(r, atts, "height", &r->obj_h)) != FF_OK ||
        (st = real_attr(r, atts, "rotation", &r->obj_rot)) != FF_OK ||
        (st = flag_attr(r, atts, "visible", 1, &r->obj_visible)) != FF_OK)
        return st;
    r->obj_id = (long)id;
    return FF_OK;
}

static ff_status start_map(reader *r, const XML_Char **atts)
{
    const char *orientation = attr(atts, "orientation");
    int64_t w, h, tw, th;
    int infinite;
    ff_status st;

    if ((st = int_attr(r, atts, "width", 0, &w)) != FF_OK ||
        (st = int_attr(r, atts, "height", 0, &h)) != FF_OK ||
        (st = int_attr(r, atts, "tilewidth", 0, &tw)) != FF_OK ||
        (st = int_attr(r, atts, "tileheight", 0, &th)) != FF_OK ||
        (st = flag_attr(r, atts, "infinite", 0, &infinite)) != FF_OK)
        return st;
    return ff_tiled_header(r->t, orientation ? orientation : "orthogonal", infinite, w, h,
                           (double)tw, (double)th, line_of(r));
}

/* What element name is, below an element of kind parent. */
static kind kind_of(const char *name, kind parent, int depth, int tileset_file)
{
    if (depth == 0)
        return strcmp(name, tileset_file ? "tileset" : "map") == 0
                   ? (tileset_file ? K_TILESET : K_MAP) : K_OTHER;
    switch (parent) {
    case K_MAP:
    case K_GROUP:
        if (parent == K_MAP && strcmp(name, "tileset") == 0)
            return K_TILESET;
        if (strcmp(name, "layer") == 0)
            return K_LAYER;
        if (strcmp(name, "objectgroup") == 0)
            return K_OBJECTGROUP;
        if (strcmp(name, "group") == 0)
            return K_GROUP;
        break;
    case K_TILESET:
        if (strcmp(name, "tile") == 0)
            return K_TILE;
        break;
    case K_LAYER:
        if (strcmp(name, "data") == 0)
            return K_DATA;
        break;
    case K_OBJECTGROUP:
        if (strcmp(name, "object") == 0)
            return K_OBJECT;
        break;
    case K_PROPERTIES:
        if (strcmp(name, "property") == 0)
            return K_PROPERTY;
        break;
    default:
        break;
    }
    if (strcmp(name, "properties") == 0 && (parent == K_MAP || parent == K_TILE))
        return K_PROPERTIES;
    return K_OTHER;
}

static void XMLCALL on_start(void *ctx, const XML_Char *name, const XML_Char **atts)
{
    reader *r = ctx;
    kind parent = r->depth > 0 ? r->stack[r->depth - 1] : K_OTHER;
    int tileset_file = r->set != NULL && r->depth == 0;
    kind k;
    int visible = 1;
    ff_status st = FF_OK;

    if (r->st != FF_OK)
        return;
    if (r->depth == MAX_DEPTH) {
        stop(r, fail(r, "elements nested more than %d deep", MAX_DEPTH));
        return;
    }
    k = kind_of(name, parent, r->depth, tileset_file);
    if (r->depth == 0 && k == K_OTHER) {
        stop(r, fail(r, "not a Tiled %s: the root element is <%.30s>", tileset_file ? "tileset" : "map",
                     name));
        return;
    }
    if (parent == K_DATA && r->counts) {
        if (strcmp(name, "chunk") == 0)
            st = fail(r, "chunks belong to infinite maps: this reads finite ones");
        else if (strcmp(name, "tile") == 0 && r->xml_tiles) {
            int64_t gid;
            if ((st = int_attr(r, atts, "gid", 0, &gid)) == FF_OK && (gid < 0 || gid > 0xFFFFFFFF))
                st = fail(r, "gid %.20s is not 0 to 4294967295", attr(atts, "gid"));
            else if (st == FF_OK && r->ntiles == (size_t)r->t->w * (size_t)r->t->h)
                st = fail(r, "tile layer '%s': more tiles than the map's cells", r->t->layer_name);
            else if (st == FF_OK)
                ff_tiled_put(r->t, r->ntiles++, (uint32_t)gid);
        }
    }
    if (st == FF_OK && (k == K_LAYER || k == K_OBJECTGROUP || k == K_GROUP))
        st = flag_attr(r, atts, "visible", 1, &visible);
    r->shown[r->depth] = (r->depth == 0 || r->shown[r->depth - 1]) && visible;
    r->stack[r->depth++] = k;
    if (st != FF_OK) {
        stop(r, st);
        return;
    }
    switch (k) {
    case K_MAP: st = start_map(r, atts); break;
    case K_TILESET: st = start_tileset(r, atts, r->depth > 1); break;
    case K_TILE: {
        int64_t id;
        if ((st = int_attr(r, atts, "id", -1, &id)) == FF_OK &&
            !(r->tile = ff_tiled_tile_add(r->t, r->set, id, r->file, line_of(r))))
            st = r->t->err->status;
        break;
    }
    case K_PROPERTY: {
        const char *value = attr(atts, "value");
        copy_attr(r->prop_name, sizeof r->prop_name, attr(atts, "name"));
        copy_attr(r->prop_type, sizeof r->prop_type, attr(atts, "type"));
        r->prop_line = line_of(r);
        r->prop_owner = r->depth >= 3 ? r->stack[r->depth - 3] : K_OTHER;
        if (value) {
            st = property_value(r, value);
        } else {
            r->prop_pending = 1;
            r->gather = 1;
            r->len = 0;
        }
        break;
    }
    case K_LAYER: {
        int64_t lw, lh;
        const char *lname = attr(atts, "name");
        if ((st = int_attr(r, atts, "width", -1, &lw)) == FF_OK &&
            (st = int_attr(r, atts, "height", -1, &lh)) == FF_OK)
            st = ff_tiled_layer(r->t, lname ? lname : "", r->shown[r->depth - 1], lw, lh,
                                line_of(r), &r->counts);
        break;
    }
    case K_DATA: st = start_data(r, atts); break;
    case K_OBJECT:
        if (r->shown[r->depth - 1])
            st = start_object(r, atts);
        break;
    default:
        if (parent == K_OBJECT && (strcmp(name, "point") == 0 || strcmp(name, "ellipse") == 0 ||
                                   strcmp(name, "polygon") == 0 || strcmp(name, "polyline") == 0 ||
                                   strcmp(name, "text") == 0))
            r->obj_shape = strcmp(name, "point") == 0 ? "point" : strcmp(name, "ellipse") == 0
                           ? "ellipse" : strcmp(name, "polygon") == 0 ? "polygon"
                           : strcmp(name, "polyline") == 0 ? "polyline" : "text";
        break;
    }
    stop(r, st);
}

static void XMLCALL on_text(void *ctx, const XML_Char *s, int len)
{
    reader *r = ctx;

    if (r->st != FF_OK || !r->gather || len <= 0)
        return;
    if (r->len + (size_t)len + 1 > r->cap) {
        char *grown = ff_grow(r->text, &r->cap, r->len + (size_t)len + 1, 1, 4096);
        if (!grown) {
            stop(r, ff_error_set(r->t->err, FF_ENOMEM, r->file, 0, 0, "out of memory"));
            return;
        }
        r->text = grown;
    }
    memcpy(r->text + r->len, s, (size_t)len);
    r->len += (size_t)len;
    r->text[r->len] = '\0';
}

static void XMLCALL on_end(void *ctx, const XML_Char *name)
{
    reader *r = ctx;
    kind k;
    ff_status st = FF_OK;

    (void)name;
    if (r->st != FF_OK)
        return;
    k = r->stack[--r->depth];
    switch (k) {
    case K_PROPERTY:
        if (r->prop_pending) {
            r->gather = 0;
            r->prop_pending = 0;
            st = property_value(r, r->text ? r->text : "");
            r->len = 0;
        }
        break;
    case K_DATA:
        if (!r->counts)
            break;
        if (r->xml_tiles) {
            if (r->ntiles != (size_t)r->t->w * (size_t)r->t->h)
                st = ff_error_set(r->t->err, FF_EINPUT, r->file, r->data_line, 0,
                                  "tile layer '%s' has %zu tiles, the map %dx%d cells",
                                  r->t->layer_name, r->ntiles, r->t->w, r->t->h);
        } else {
            r->gather = 0;
            st = ff_tiled_data(r->t, r->encoding, r->compression, r->text ? r->text : "", r->len,
                               r->data_line);
        }
        r->len = 0;
        break;
    case K_LAYER:
        r->counts = 0;
        break;
    case K_TILE:
        r->tile = NULL;
        break;
    case K_OBJECT:
        if (r->shown[r->depth] && r->obj_visible)
            st = ff_tiled_object(r->t, r->obj_class, r->obj_shape, r->obj_id, r->obj_x, r->obj_y,
                                 r->obj_w, r->obj_h, r->obj_rot, r->file, r->obj_line);
        break;
    default:
        break;
    }
    stop(r, st);
}

static void XMLCALL on_entity(void *ctx, const XML_Char *name, int is_param, const XML_Char *value,
                              int value_len, const XML_Char *base, const XML_Char *system_id,
                              const XML_Char *public_id, const XML_Char *notation)
{
    reader *r = ctx;

    (void)is_param, (void)value, (void)value_len, (void)base, (void)system_id, (void)public_id,
        (void)notation;
    stop(r, fail(r, "entity declaration '%.30s': Tiled files have none, and they are refused",
                 name));
}

/* Parse data (a map, or with set a tileset file) through r. */
static ff_status parse(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data, size_t size,
                       const char *file)
{
    reader r;
    size_t at = 0;
    int final;

    memset(&r, 0, sizeof r);
    r.t = t;
    r.set = set;
    r.file = file;
    r.input_size = size;
    if (!(r.p = XML_ParserCreate(NULL)))
        return ff_error_set(t->err, FF_ENOMEM, file, 0, 0, "out of memory");
    XML_SetUserData(r.p, &r);
    XML_SetElementHandler(r.p, on_start, on_end);
    XML_SetCharacterDataHandler(r.p, on_text);
    XML_SetEntityDeclHandler(r.p, on_entity);
    /* XML_Parse takes an int: feed a large file in pieces. */
    do {
        size_t piece = size - at > (size_t)1 << 30 ? (size_t)1 << 30 : size - at;
        final = at + piece == size;
        if (XML_Parse(r.p, (const char *)data + at, (int)piece, final) != XML_STATUS_OK) {
            if (r.st == FF_OK && XML_GetErrorCode(r.p) == XML_ERROR_NO_MEMORY)
                r.st = ff_error_set(t->err, FF_ENOMEM, file, 0, 0, "out of memory for the XML parser");
            else if (r.st == FF_OK)
                r.st = ff_error_set(t->err, FF_EINPUT, file, (long)XML_GetCurrentLineNumber(r.p),
                                    (long)XML_GetCurrentColumnNumber(r.p) + 1, "bad XML: %s",
                                    XML_ErrorString(XML_GetErrorCode(r.p)));
            break;
        }
        at += piece;
    } while (!final);
    XML_ParserFree(r.p);
    free(r.text);
    return r.st;
}

ff_status ff_tiled_xml_map(ff_tiled *t, const unsigned char *data, size_t size, ff_grid *g)
{
    ff_status st = parse(t, NULL, data, size, t->name);

    if (st == FF_OK && t->w == 0)
        st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0, "a TMX map without its size");
    return st == FF_OK ? ff_tiled_finish(t, g) : st;
}

ff_status ff_tiled_xml_tileset(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data,
                               size_t size, const char *file)
{
    return parse(t, set, data, size, file);
}
