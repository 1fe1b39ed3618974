/* test_tiled.c - the Tiled readers (tiledjson.c, tiledxml.c, tiledata.c)
 * and the convention (tiled.c): random maps written both as an ffmap and
 * as Tiled JSON and TMX give the same grid; the details of man 5 fftiled
 * one by one. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "mapread.h"
#include "stream.h"

static ff_status parse_opt(const char *text, const ff_map_options *o, ff_grid *g, ff_error *err)
{
    return ff_map_parse((const unsigned char *)text, strlen(text), "m", o, g, err);
}

static ff_status parse(const char *text, ff_grid *g, ff_error *err)
{
    ff_map_options o;

    ff_map_options_init(&o);
    return parse_opt(text, &o, g, err);
}

/* A growing string. */
typedef struct {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    int k;

    for (;;) {
        va_start(ap, fmt);
        k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (t->s && (size_t)k < t->cap - t->n)
            break;
        t->cap = (t->cap + (size_t)k + 1) * 2;
        t->s = realloc(t->s, t->cap);
        cr_assert(t->s);
    }
    t->n += (size_t)k;
}

/* The kinds of tile a random map draws from: legend character, ffmap
 * meaning, Tiled properties. */
static const struct {
    char ch;
    const char *legend, *json, *xml;
} kinds[] = {
    { '#', "wall", "{\"name\":\"wall\",\"type\":\"bool\",\"value\":true}",
      "<property name=\"wall\" type=\"bool\" value=\"true\"/>" },
    { '.', "1", "{\"name\":\"cost\",\"type\":\"float\",\"value\":1}",
      "<property name=\"cost\" type=\"float\" value=\"1\"/>" },
    { ',', "0", "{\"name\":\"cost\",\"type\":\"int\",\"value\":0}",
      "<property name=\"cost\" type=\"int\" value=\"0\"/>" },
    { '~', "2.25", "{\"name\":\"cost\",\"type\":\"float\",\"value\":2.25}",
      "<property name=\"cost\" type=\"float\" value=\"2.25\"/>" },
    { 'G', "goal 1", "{\"name\":\"cost\",\"type\":\"float\",\"value\":1},{\"name\":\"goal\",\"type\":\"bool\",\"value\":true}",
      "<property name=\"goal\" type=\"bool\" value=\"true\"/><property name=\"cost\" type=\"float\" value=\"1\"/>" },
    { 'S', "spawn 7", "{\"name\":\"spawn\",\"type\":\"bool\",\"value\":true},{\"name\":\"cost\",\"type\":\"float\",\"value\":7}",
      "<property name=\"spawn\" type=\"bool\" value=\"true\"/><property name=\"cost\" type=\"float\" value=\"7\"/>" },
    { '>', "1 E", "{\"name\":\"cost\",\"type\":\"float\",\"value\":1},{\"name\":\"oneway\",\"type\":\"string\",\"value\":\"E\"}",
      "<property name=\"cost\" type=\"float\" value=\"1\"/><property name=\"oneway\" value=\"E\"/>" },
    { '^', "0.5 N,NE,NW", "{\"name\":\"oneway\",\"type\":\"string\",\"value\":\"N,NE,NW\"},{\"name\":\"cost\",\"type\":\"float\",\"value\":0.5}",
      "<property name=\"oneway\" value=\"N,NE,NW\"/><property name=\"cost\" type=\"float\" value=\"0.5\"/>" },
};
#define NKINDS (sizeof kinds / sizeof *kinds)

static void same_grid(const ff_grid *a, const ff_grid *b, int round)
{
    cr_assert_eq(a->w, b->w, "round %d", round);
    cr_assert_eq(a->h, b->h, "round %d", round);
    cr_assert_eq(ff_grid_id(a), ff_grid_id(b), "round %d: map ids differ", round);
    cr_assert_eq(a->ngoals, b->ngoals, "round %d", round);
    cr_assert(a->ngoals == 0 || !memcmp(a->goals, b->goals, a->ngoals * sizeof *a->goals), "round %d", round);
    cr_assert_eq(a->nspawns, b->nspawns, "round %d", round);
    cr_assert(a->nspawns == 0 || !memcmp(a->spawns, b->spawns, a->nspawns * sizeof *a->spawns),
              "round %d", round);
}

Test(tiled, random_maps_as_ffmap_json_and_tmx)
{
    unsigned long long rng = 20;
    int round;

    for (round = 0; round < 300; round++) {
        int w = 1 + (int)(tu_next(&rng) % 7), h = 1 + (int)(tu_next(&rng) % 6), x, y;
        int cell[64], bottom[64], top[64];
        /* Tiled ids of the kinds: a random permutation, and the tileset
         * starting at a random firstgid after an unused one. */
        unsigned id_of[NKINDS], first = 2 + (unsigned)(tu_next(&rng) % 50);
        static const unsigned flags[] = { 0, 0x80000000u, 0x40000000u, 0x20000000u, 0x10000000u, 0xE0000000u };
        text ffmap = { 0 }, json = { 0 }, tmx = { 0 };
        ff_grid a, b, c;
        ff_error err;
        size_t k, j;

        for (k = 0; k < NKINDS; k++)
            id_of[k] = (unsigned)k;
        for (k = NKINDS - 1; k > 0; k--) {
            unsigned t;
            j = tu_next(&rng) % (k + 1);
            t = id_of[k];
            id_of[k] = id_of[j];
            id_of[j] = t;
        }
        /* Each cell: its kind, and two layers whose topmost non-empty
         * tile is it (an empty cell is a wall too). */
        for (k = 0; k < (size_t)(w * h); k++) {
            int kind = (int)(tu_next(&rng) % NKINDS), empty;
            cell[k] = kind;
            empty = kind == 0 && tu_next(&rng) % 2;
            top[k] = empty || tu_next(&rng) % 2 ? 0 : (int)(first + id_of[kind]);
            bottom[k] = empty ? 0 : top[k] ? (int)(first + id_of[tu_next(&rng) % NKINDS])
                                          : (int)(first + id_of[kind]);
        }
        put(&ffmap, "ffmap 1\n");
        for (k = 0; k < NKINDS; k++)
            put(&ffmap, "legend %c %s\n", kinds[k].ch, kinds[k].legend);
        put(&ffmap, "map\n");
        for (y = 0; y < h; y++) {
            for (x = 0; x < w; x++)
                put(&ffmap, "%c", kinds[cell[y * w + x]].ch);
            put(&ffmap, "\n");
        }
        /* JSON: an unused tileset first, data as arrays. */
        put(&json, "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%d,\"height\":%d,"
                   "\"tilewidth\":16,\"tileheight\":16,\"infinite\":false,\"tilesets\":["
                   "{\"firstgid\":1,\"name\":\"spare\",\"tilecount\":1,\"tiles\":[]},"
                   "{\"firstgid\":%u,\"name\":\"kinds\",\"tiles\":[", w, h, first);
        for (k = 0; k < NKINDS; k++)
            put(&json, "%s{\"id\":%u,\"properties\":[%s]}", k ? "," : "", id_of[k], kinds[k].json);
        put(&json, "]}],\"layers\":[");
        for (j = 0; j < 2; j++) {
            const int *layer = j ? top : bottom;
            put(&json, "%s{\"type\":\"tilelayer\",\"name\":\"l%zu\",\"width\":%d,\"height\":%d,\"data\":[",
                j ? "," : "", j, w, h);
            for (k = 0; k < (size_t)(w * h); k++)
                put(&json, "%s%u", k ? "," : "",
                    (unsigned)layer[k] | (layer[k] ? flags[tu_next(&rng) % 6] : 0));
            put(&json, "]}");
        }
        put(&json, "]}");
        /* TMX: CSV below, tile elements above. */
        put(&tmx, "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" "
                  "tilewidth=\"16\" tileheight=\"16\">\n <tileset firstgid=\"%u\" name=\"kinds\">\n",
            w, h, first);
        for (k = 0; k < NKINDS; k++)
            put(&tmx, "  <tile id=\"%u\"><properties>%s</properties></tile>\n", id_of[k], kinds[k].xml);
        put(&tmx, " </tileset>\n <layer name=\"l0\" width=\"%d\" height=\"%d\"><data encoding=\"csv\">\n", w, h);
        for (k = 0; k < (size_t)(w * h); k++)
            put(&tmx, "%u%s", (unsigned)bottom[k] | (bottom[k] ? flags[tu_next(&rng) % 6] : 0),
                k + 1 == (size_t)(w * h) ? "\n" : (k + 1) % (size_t)w ? "," : ",\n");
        put(&tmx, "</data></layer>\n <layer name=\"l1\"><data>");
        for (k = 0; k < (size_t)(w * h); k++)
            put(&tmx, top[k] ? "<tile gid=\"%u\"/>" : "<tile/>", (unsigned)top[k]);
        put(&tmx, "</data></layer>\n</map>\n");

        cr_assert_eq(parse(ffmap.s, &a, &err), FF_OK, "%s", err.msg);
        cr_assert_eq(parse(json.s, &b, &err), FF_OK, "round %d: %s\n%s", round, err.msg, json.s);
        cr_assert_eq(parse(tmx.s, &c, &err), FF_OK, "round %d: %s\n%s", round, err.msg, tmx.s);
        same_grid(&a, &b, round);
        same_grid(&a, &c, round);
        ff_grid_free(&a);
        ff_grid_free(&b);
        ff_grid_free(&c);
        free(ffmap.s);
        free(json.s);
        free(tmx.s);
    }
}

#define TS1 "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tiles\":["
#define MAP1(wh, tiles, layers) \
    "{\"type\":\"map\",\"orientation\":\"orthogonal\"," wh ",\"tilewidth\":10,\"tileheight\":10," \
    TS1 tiles "]}],\"layers\":[" layers "]}"
#define COST(id, c, more) \
    "{\"id\":" #id ",\"properties\":[{\"name\":\"cost\",\"type\":\"float\",\"value\":" #c "}" more "]}"
#define CLASS(name) ",{\"name\":\"class\",\"type\":\"string\",\"value\":\"" name "\"}"

Test(tiled, classes_beyond_moving_ai_are_numbered_from_3_in_byte_order)
{
    ff_grid g;
    ff_error err;
    const char *m = MAP1("\"width\":5,\"height\":1",
                         COST(0, 1, CLASS("lava")) "," COST(1, 1, CLASS("ice")) ","
                         COST(2, 1, CLASS("water")) "," COST(3, 1, "") "," COST(4, 1, CLASS("ground")),
                         "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":5,\"height\":1,\"data\":[1,2,3,4,5]}");

    cr_assert_eq(parse(m, &g, &err), FF_OK, "%s", err.msg);
    cr_assert(g.terrain);
    cr_assert_eq(g.terrain[0], 4);  /* lava, after ice */
    cr_assert_eq(g.terrain[1], 3);  /* ice */
    cr_assert_eq(g.terrain[2], 1);  /* water */
    cr_assert_eq(g.terrain[3], 0);  /* no class: ground */
    cr_assert_eq(g.terrain[4], 0);
    ff_grid_free(&g);
}

Test(tiled, class_of_unused_tiles_counts_for_nothing)
{
    ff_grid g;
    ff_error err;
    const char *m = MAP1("\"width\":2,\"height\":1",
                         COST(0, 1, CLASS("water")) "," COST(1, 1, CLASS("ground")),
                         "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":1,\"data\":[2,2]}");

    cr_assert_eq(parse(m, &g, &err), FF_OK, "%s", err.msg);
    cr_assert(g.terrain == NULL, "one class: no class channel");
    ff_grid_free(&g);
}

Test(tiled, goals_and_spawns_of_tiles_and_objects_join_sorted)
{
    ff_grid g;
    ff_error err;
    const char *m = MAP1("\"width\":4,\"height\":2",
                         COST(0, 1, "") "," COST(1, 1, ",{\"name\":\"spawn\",\"type\":\"bool\",\"value\":true}"),
                         "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":4,\"height\":2,\"data\":[1,2,1,1,2,1,1,0]},"
                         "{\"type\":\"objectgroup\",\"objects\":["
                         "{\"id\":1,\"type\":\"spawn\",\"point\":true,\"x\":5,\"y\":5},"
                         "{\"id\":2,\"type\":\"spawn\",\"x\":5,\"y\":0,\"width\":10,\"height\":10},"
                         "{\"id\":3,\"type\":\"goal\",\"x\":25,\"y\":5,\"width\":100,\"height\":100},"
                         "{\"id\":4,\"class\":\"goal\",\"point\":true,\"x\":0,\"y\":10}]}");

    cr_assert_eq(parse(m, &g, &err), FF_OK, "%s", err.msg);
    /* spawns: tiles 1 and 4, the point 0, the rectangle 0 and 1 */
    cr_assert_eq(g.nspawns, 3);
    cr_assert_eq(g.spawns[0], 0);
    cr_assert_eq(g.spawns[1], 1);
    cr_assert_eq(g.spawns[2], 4);
    /* goals: the rectangle over 2,0 3,0 2,1 (3,1 is empty: a wall,
     * skipped), clipped to the map; the point 0,1 */
    cr_assert_eq(g.ngoals, 4);
    cr_assert_eq(g.goals[0], 2);
    cr_assert_eq(g.goals[1], 3);
    cr_assert_eq(g.goals[2], 4);
    cr_assert_eq(g.goals[3], 6);
    ff_grid_free(&g);
}

Test(tiled, a_claim_larger_than_the_data_is_refused_before_allocating)
{
    ff_grid g;
    ff_error err;
    /* 30000 x 30000 cells from 12 bytes of zlib: refused unread. */
    const char *m = MAP1("\"width\":30000,\"height\":30000", COST(0, 1, ""),
                         "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":30000,\"height\":30000,"
                         "\"encoding\":\"base64\",\"compression\":\"zlib\",\"data\":\"eJxjZGBgYAJiAAAYAAQ=\"}");
    ff_map_options o;

    cr_assert_eq(parse(m, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "its data cannot hold the map's 30000x30000 cells"), "%s", err.msg);
    ff_map_options_init(&o);
    o.max_cells = 100;
    cr_assert_eq(parse_opt(m, &o, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "100"), "the cell limit: %s", err.msg);
}

Test(tiled, csv_takes_blanks_and_a_last_comma_but_no_empty_value)
{
    static const char head[] = "<map orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"8\" "
                               "tileheight=\"8\"><tileset firstgid=\"1\" name=\"t\"><tile id=\"0\">"
                               "<properties><property name=\"cost\" type=\"float\" value=\"1\"/>"
                               "</properties></tile></tileset><layer name=\"a\"><data encoding=\"csv\">";
    static const struct {
        const char *data;
        int ok;
    } cases[] = {
        { "1,1,1,1", 1 }, { "\n 1 ,\t1,\r\n1,1,\n", 1 }, { "1,,1,1", 0 }, { "1,1,1", 0 },
        { "1,1,1,1,1", 0 }, { "1,1,1,x", 0 }, { "1,1,1,4294967296", 0 }, { "", 0 }, { ",", 0 },
    };
    size_t k;

    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        char m[1024];
        ff_grid g;
        ff_error err;
        ff_status st;
        snprintf(m, sizeof m, "%s%s</data></layer></map>", head, cases[k].data);
        st = parse(m, &g, &err);
        cr_assert_eq(st == FF_OK, cases[k].ok, "case %zu '%s': %s", k, cases[k].data, err.msg);
        if (st == FF_OK)
            ff_grid_free(&g);
    }
}

Test(tiled, base64_blanks_padding_and_bad_symbols)
{
    /* gids 1 1: AQAAAAEAAAA= ; the map is 2x1. */
    static const struct {
        const char *data;
        int ok;
    } cases[] = {
        { "AQAAAAEAAAA=", 1 }, { "\\n   AQAA AAEA\\tAAA=\\r\\n  ", 1 }, { "AQAAAAEAAAA", 1 },
        { "AQAAAAEAAA=A", 0 }, { "AQAAAAEAAAA==", 0 }, { "AQAA*AEAAAA=", 0 }, { "=QAAAAEAAAA", 0 },
    };
    size_t k;

    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        char m[1024];
        ff_grid g;
        ff_error err;
        ff_status st;
        snprintf(m, sizeof m,
                 MAP1("\"width\":2,\"height\":1", COST(0, 1, ""),
                      "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":1,"
                      "\"encoding\":\"base64\",\"data\":\"%s\"}"), cases[k].data);
        st = parse(m, &g, &err);
        cr_assert_eq(st == FF_OK, cases[k].ok, "case %zu '%s': %s", k, cases[k].data, err.msg);
        if (st == FF_OK)
            ff_grid_free(&g);
    }
}

Test(tiled, tmx_property_as_text_and_cell_size)
{
    ff_grid g;
    ff_error err;
    const char *m =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.10\" orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
        " <properties><property name=\"cell\" type=\"float\" value=\"0.5\"/></properties>\n"
        " <tileset firstgid=\"1\" name=\"t\">\n"
        "  <properties><property name=\"cost\" type=\"float\" value=\"-9\"/></properties>\n"
        "  <tile id=\"0\"><properties><property name=\"cost\" type=\"float\" value=\"3\"/>"
        "<property name=\"class\">water</property></properties></tile>\n"
        "  <tile id=\"1\"><properties><property name=\"cost\" type=\"float\" value=\"3\"/></properties></tile>\n"
        " </tileset>\n"
        " <layer name=\"a\"><properties><property name=\"cost\" value=\"x\"/></properties>"
        "<data encoding=\"csv\">1,2</data></layer>\n"
        "</map>\n";

    cr_assert_eq(parse(m, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.cell_size, 0.5);
    cr_assert_eq(g.cost[0], 3);
    cr_assert(g.terrain && g.terrain[0] == 1 && g.terrain[1] == 0);
    ff_grid_free(&g);
}

Test(tiled, refusals_without_an_error_record_leave_the_grid_empty)
{
    static const char *const bad[] = {
        "{", "<map", "{\"layers\":[],\"tilesets\":[]}", "<map orientation=\"orthogonal\"/>",
        MAP1("\"width\":1,\"height\":1", "{\"id\":0}", "{\"type\":\"tilelayer\",\"data\":[1]}"),
        "<tileset name=\"x\"/>",
    };
    size_t k;

    for (k = 0; k < sizeof bad / sizeof *bad; k++) {
        ff_grid g;
        cr_assert_eq(parse(bad[k], &g, NULL), FF_EINPUT, "case %zu", k);
        cr_assert(g.w == 0 && !g.cost && !g.goals && !g.spawns, "case %zu", k);
    }
}

Test(tiled, a_message_is_one_line_whatever_the_names_hold)
{
    ff_grid g;
    ff_error err;
    const char *m = MAP1("\"width\":1,\"height\":1", "{\"id\":0}",
                         "{\"type\":\"tilelayer\",\"name\":\"a\\nb\",\"width\":1,\"height\":1,"
                         "\"encoding\":\"base64\",\"data\":\"!\"}");

    cr_assert_eq(parse(m, &g, &err), FF_EINPUT);
    cr_assert(!strchr(err.msg, '\n'), "%s", err.msg);
    cr_assert(strstr(err.msg, "'a?b'"), "%s", err.msg);
}
