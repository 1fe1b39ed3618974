/* test_mapread.c - the map readers: Moving AI, ffmap, grey PNG, streams. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <png.h>

#include "mapread.h"

static ff_status parse(const char *text, ff_grid *g, ff_error *err)
{
    ff_map_options o;

    ff_map_options_init(&o);
    return ff_map_parse((const unsigned char *)text, strlen(text), "m", &o, g, err);
}

Test(mapread, moving_ai_letters_and_classes)
{
    ff_grid g;
    ff_error err;

    cr_assert_eq(parse("type octile\nheight 2\nwidth 4\nmap\n.GS@\nWTO.\n", &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.w, 4);
    cr_assert_eq(g.h, 2);
    cr_assert_eq(g.cost[0], 1);
    cr_assert_eq(g.cost[2], 1);          /* swamp: ground */
    cr_assert(isinf(g.cost[3]));        /* @ */
    cr_assert(isinf(g.cost[6]));        /* O */
    cr_assert(g.terrain != NULL);
    cr_assert_eq(g.terrain[0], g.terrain[2]);
    cr_assert_neq(g.terrain[4], g.terrain[0]);  /* water */
    cr_assert_neq(g.terrain[5], g.terrain[0]);  /* trees */
    cr_assert_neq(g.terrain[5], g.terrain[4]);
    /* A step from ground to water is not legal; water to water would be. */
    cr_assert_eq(ff_grid_step_ok(&g, 0, 0, FF_DIR_S), 0);
    ff_grid_free(&g);
}

Test(mapread, moving_ai_crlf_without_final_newline)
{
    ff_grid g;

    cr_assert_eq(parse("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n...\r\n.@.", &g, NULL), FF_OK);
    cr_assert_eq(g.w, 3);
    cr_assert_eq(g.h, 2);
    cr_assert(g.terrain == NULL, "one class: no class channel");
    cr_assert(isinf(g.cost[4]));
    ff_grid_free(&g);
}

Test(mapread, berlin_reads_when_present)
{
    FILE *f = fopen("../shared/testdata/movingai/Berlin_0_512.map", "rb");
    ff_map_options o;
    ff_grid g;
    ff_error err;

    if (!f)
        cr_skip_test("../shared not present");
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, "Berlin", &o, &g, &err), FF_OK, "%s", err.msg);
    fclose(f);
    cr_assert_eq(g.w, 512);
    cr_assert_eq(g.h, 512);
    ff_grid_free(&g);
}

Test(mapread, moving_ai_refusals)
{
    ff_grid g;
    ff_error err;

    cr_assert_eq(parse("type octile\nheight 2\nwidth 2\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "ends after 1 of 2 rows"), "%s", err.msg);
    cr_assert_eq(parse("type octile\nheight 1\nwidth 2\nmap\n.?\n", &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 5);
    cr_assert_eq(err.col, 2);
    cr_assert_eq(parse("type octile\nheight 1\nwidth 2\nmap\n..\n..\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "more rows"), "%s", err.msg);
    cr_assert_eq(parse("type octile\nheight x\nwidth 2\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("type octile\nwidth 2\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "height"), "%s", err.msg);
    cr_assert_eq(parse("hello\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "unknown map format"), "%s", err.msg);
}

/* parse() for text holding NUL bytes: size bytes of text. */
static ff_status parse_bytes(const char *text, size_t size, ff_grid *g, ff_error *err)
{
    ff_map_options o;

    ff_map_options_init(&o);
    return ff_map_parse((const unsigned char *)text, size, "m", &o, g, err);
}

Test(mapread, header_lines_are_refused_whole_never_cut)
{
    static const char nul_height[] = "type octile\nheight 1\0junk\nwidth 1\nmap\n.\n";
    static const char nul_map[] = "type octile\nheight 1\nwidth 1\nmap\0junk\n.\n";
    static const char nul_ffmap[] = "ffmap 1\nlegend . 1\0x\nmap\n.\n";
    char text[8192];
    ff_grid g;
    ff_error err;

    /* A header line of exactly the cap reads; one byte more is refused
     * at that byte, not cut to a line that reads as "width 3". */
    snprintf(text, sizeof text, "type octile\nheight 1\nwidth 3%*s\nmap\n...\n",
             FF_MOVINGAI_HEADER_LINE_MAX - 7, "");
    cr_assert_eq(parse(text, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.w, 3);
    ff_grid_free(&g);
    snprintf(text, sizeof text, "type octile\nheight 1\nwidth 3%*sjunk\nmap\n...\n",
             FF_MOVINGAI_HEADER_LINE_MAX - 7, "");
    cr_assert_eq(parse(text, &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 3);
    cr_assert_eq(err.col, FF_MOVINGAI_HEADER_LINE_MAX + 1);
    cr_assert(strstr(err.msg, "longer than 127 bytes"), "%s", err.msg);
    snprintf(text, sizeof text, "ffmap 1\ncell 1%*s\nmap\n.\n", FF_FFMAP_HEADER_LINE_MAX - 5, "");
    cr_assert_eq(parse(text, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "longer than 4095 bytes"), "%s", err.msg);
    /* A NUL in a header line ends no string early. */
    cr_assert_eq(parse_bytes(nul_height, sizeof nul_height - 1, &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 2);
    cr_assert_eq(err.col, 9);
    cr_assert(strstr(err.msg, "NUL"), "%s", err.msg);
    cr_assert_eq(parse_bytes(nul_map, sizeof nul_map - 1, &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 4);
    cr_assert_eq(err.col, 4);
    cr_assert_eq(parse_bytes(nul_ffmap, sizeof nul_ffmap - 1, &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 2);
    cr_assert_eq(err.col, 11);
}

Test(mapread, ffmap_legend_one_way_goals_spawns_cell_origin)
{
    ff_grid g;
    ff_error err;

    cr_assert_eq(parse("ffmap 1\n# comment\ncell 2.5\norigin -10 4\nlegend # wall\nlegend . 1\n"
                       "legend ~ 4\nlegend , 0\nlegend > 1 E\nlegend ^ 1 N,NE,NW\n"
                       "legend G goal 1\nlegend S spawn 1\nmap\n#######\n#S.~>G#\n#,^...#\n",
                       &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.w, 7);
    cr_assert_eq(g.h, 3);
    cr_assert_eq(g.cell_size, 2.5);
    cr_assert_eq(g.origin_x, -10);
    cr_assert_eq(g.origin_y, 4);
    cr_assert_eq(g.cost[7 + 3], 4);
    cr_assert_eq(g.cost[14 + 1], 0);
    cr_assert(g.oneway != NULL);
    cr_assert_eq(g.oneway[7 + 4], 1u << FF_DIR_E);
    cr_assert_eq(g.oneway[14 + 2], (1u << FF_DIR_N) | (1u << FF_DIR_NE) | (1u << FF_DIR_NW));
    cr_assert_eq(g.oneway[7 + 1], FF_ONEWAY_ALL);
    cr_assert_eq(g.ngoals, 1);
    cr_assert_eq(g.goals[0], 7 + 5);
    cr_assert_eq(g.nspawns, 1);
    cr_assert_eq(g.spawns[0], 7 + 1);
    ff_grid_free(&g);
}

Test(mapread, ffmap_without_legend_uses_moving_ai_letters)
{
    ff_grid g;

    cr_assert_eq(parse("ffmap 1\nmap\n.@T\n", &g, NULL), FF_OK);
    cr_assert_eq(g.cost[0], 1);
    cr_assert(isinf(g.cost[1]));
    cr_assert(g.terrain != NULL && g.terrain[2] != g.terrain[0]);
    ff_grid_free(&g);
}

Test(mapread, ffmap_refusals_name_line_and_column)
{
    ff_grid g;
    ff_error err;

    cr_assert_eq(parse("ffmap 1\nlegend . 1\nmap\n..\n.x\n", &g, &err), FF_EINPUT);
    cr_assert_eq(err.line, 5);
    cr_assert_eq(err.col, 2);
    cr_assert(strstr(err.msg, "unknown tile 'x'"), "%s", err.msg);
    cr_assert_eq(parse("ffmap 1\nlegend . 1\nmap\n..\n.\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "ragged"), "%s", err.msg);
    cr_assert_eq(parse("ffmap 1\nlegend . 1\nmap\n..\n\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("ffmap 1\nlegend . -1\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(err.col, 10);
    cr_assert_eq(parse("ffmap 1\nlegend . inf\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("ffmap 1\nlegend . 1 Q\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "bad directions"), "%s", err.msg);
    cr_assert_eq(parse("ffmap 1\nlegend . 1\nlegend . 2\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "two legend"), "%s", err.msg);
    cr_assert_eq(parse("ffmap 1\nlegend # wall\nlegend G goal 1\nmap\nG#\n", &g, &err), FF_OK);
    ff_grid_free(&g);
    cr_assert_eq(parse("ffmap 2\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("ffmap 1\ncell 0\nmap\n..\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("ffmap 1\nlegend . 1\n", &g, &err), FF_EINPUT);
    cr_assert_eq(parse("ffmap 1\nlegend . 1\nmap\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "no rows"), "%s", err.msg);
}

/* Encode a grey PNG in memory with libpng's simplified API. */
static void *grey_png(int w, int h, const unsigned char *pixels, size_t *size, int format)
{
    png_image img;
    void *mem;

    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = (png_uint_32)format;
    cr_assert(png_image_write_get_memory_size(img, *size, 0, pixels, 0, NULL));
    mem = malloc(*size);
    cr_assert(png_image_write_to_memory(&img, mem, size, 0, pixels, 0, NULL));
    return mem;
}

Test(mapread, grey_png_levels_and_scale)
{
    unsigned char px[6] = { 0, 1, 2, 255, 10, 0 };
    size_t size;
    void *png = grey_png(3, 2, px, &size, PNG_FORMAT_GRAY);
    ff_map_options o;
    ff_grid g;
    ff_error err;

    ff_map_options_init(&o);
    o.png_scale = 0.5;
    cr_assert_eq(ff_map_parse(png, size, "p.png", &o, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.w, 3);
    cr_assert(isinf(g.cost[0]));
    cr_assert_eq(g.cost[1], 0.5f);
    cr_assert_eq(g.cost[3], 127.5f);
    cr_assert_eq(g.cost[4], 5.0f);
    ff_grid_free(&g);
    /* The largest scale keeps grey 255 a float: open, never a wall; one
     * over it (1e37 made 255 cost inf) is refused. */
    o.png_scale = 1e36;
    cr_assert_eq(ff_map_parse(png, size, "p.png", &o, &g, &err), FF_OK, "%s", err.msg);
    cr_assert(isfinite(g.cost[3]));
    cr_assert_eq(g.cost[3], (float)(255 * 1e36));
    ff_grid_free(&g);
    o.png_scale = 1e37;
    cr_assert_eq(ff_map_parse(png, size, "p.png", &o, &g, &err), FF_EUSAGE);
    cr_assert(strstr(err.msg, "from 0 (excluded) to 1e36"), "%s", err.msg);
    free(png);
}

Test(mapread, colour_png_and_broken_png_are_refused)
{
    unsigned char px[12] = { 0, 0, 0, 9, 9, 9, 9, 9, 8, 1, 1, 1 };
    size_t size;
    void *png = grey_png(2, 2, px, &size, PNG_FORMAT_RGB);
    ff_map_options o;
    ff_grid g;
    ff_error err;

    ff_map_options_init(&o);
    cr_assert_eq(ff_map_parse(png, size, "c.png", &o, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "colour"), "%s", err.msg);
    cr_assert_eq(ff_map_parse(png, size / 2, "c.png", &o, &g, &err), FF_EINPUT);
    free(png);
}

Test(mapread, max_cells_is_enforced_before_allocating)
{
    ff_map_options o;
    ff_grid g;
    ff_error err;
    const char *text = "type octile\nheight 4000000000\nwidth 4000000000\nmap\n";

    ff_map_options_init(&o);
    cr_assert_eq(ff_map_parse((const unsigned char *)text, strlen(text), "m", &o, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "more than"), "%s", err.msg);
    o.max_cells = 5;
    cr_assert_eq(parse("ffmap 1\nmap\n...\n...\n", &g, &err), FF_OK);
    ff_grid_free(&g);
    text = "ffmap 1\nmap\n...\n...\n";
    cr_assert_eq(ff_map_parse((const unsigned char *)text, strlen(text), "m", &o, &g, &err), FF_EINPUT);
}

/* A grey PNG with a gAMA chunk: levels are read as painted, not converted
 * through the gamma (the simplified libpng API would turn 128 into 186). */
static void write_fn(png_structp png, png_bytep data, size_t n)
{
    FILE *f = png_get_io_ptr(png);
    fwrite(data, 1, n, f);
}

static void flush_fn(png_structp png)
{
    (void)png;
}

Test(mapread, grey_png_with_gamma_keeps_levels)
{
    unsigned char row[4] = { 0, 1, 128, 255 };
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    ff_map_options o;
    ff_grid g;
    ff_error err;

    cr_assert(png && info);
    png_set_write_fn(png, mem, write_fn, flush_fn);
    png_set_IHDR(png, info, 4, 1, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_gAMA(png, info, 1.0);
    png_write_info(png, info);
    png_write_row(png, row);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(mem);
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_parse((unsigned char *)buf, size, "g.png", &o, &g, &err), FF_OK, "%s", err.msg);
    cr_assert(isinf(g.cost[0]));
    cr_assert_eq(g.cost[1], 1);
    cr_assert_eq(g.cost[2], 128);
    cr_assert_eq(g.cost[3], 255);
    ff_grid_free(&g);
    free(buf);
}

Test(mapread, other_moving_ai_types_and_a_byte_order_mark_are_refused)
{
    ff_grid g;
    ff_error err;

    cr_assert_eq(parse("type hexagonal\nheight 1\nwidth 1\nmap\n.\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "type octile"), "%s", err.msg);
    cr_assert_eq(parse("\xef\xbb\xbf" "ffmap 1\nmap\n.\n", &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "byte-order mark"), "%s", err.msg);
}

/* A PNG of w x h pixels of the given colour type and bit depth, encoded
 * with libpng's low-level writer (as ImageMagick and GIMP write them),
 * with a palette of n_palette RGB triples for palette images; the rows are
 * packed as the type and depth say.  The caller frees *buf. */
static void write_png(int w, int h, int colour, int depth, const unsigned char *palette,
                      int n_palette, const unsigned char *packed, char **buf, size_t *size)
{
    FILE *mem = open_memstream(buf, size);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_color pal[256];
    size_t row_bytes;
    int i;

    cr_assert(mem && png && info);
    png_set_write_fn(png, mem, write_fn, flush_fn);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, colour, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (i = 0; i < n_palette; i++) {
        pal[i].red = palette[3 * i];
        pal[i].green = palette[3 * i + 1];
        pal[i].blue = palette[3 * i + 2];
    }
    if (colour == PNG_COLOR_TYPE_PALETTE)
        png_set_PLTE(png, info, pal, n_palette);
    png_write_info(png, info);
    row_bytes = png_get_rowbytes(png, info);
    for (i = 0; i < h; i++)
        png_write_row(png, packed + (size_t)i * row_bytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(mem);
}

/* Parse a PNG from write_png; FF_OK with its levels in costs[], in order. */
static ff_status parse_png(char *buf, size_t size, float *costs, size_t n, ff_error *err)
{
    ff_map_options o;
    ff_grid g;
    ff_status st;
    size_t i;

    ff_map_options_init(&o);
    st = ff_map_parse((unsigned char *)buf, size, "c.png", &o, &g, err);
    free(buf);
    if (st != FF_OK)
        return st;
    cr_assert_eq(g.w * g.h, n);
    for (i = 0; i < n; i++)
        costs[i] = g.cost[i];
    ff_grid_free(&g);
    return FF_OK;
}

/* Levels 0, 1, 128 and 255: a wall and costs 1, 128 and 255. */
static void expect_levels(const float *costs)
{
    cr_expect(isinf(costs[0]));
    cr_expect_eq(costs[1], 1.0f);
    cr_expect_eq(costs[2], 128.0f);
    cr_expect_eq(costs[3], 255.0f);
}

Test(mapread, rgb_and_rgba_png_of_grey_pixels_read_as_grey)
{
    const unsigned char rgb[12] = { 0, 0, 0, 1, 1, 1, 128, 128, 128, 255, 255, 255 };
    const unsigned char rgba[16] = { 0, 0, 0, 255, 1, 1, 1, 255, 128, 128, 128, 255, 255, 255, 255, 255 };
    const unsigned char grey_alpha[8] = { 0, 255, 1, 255, 128, 255, 255, 255 };
    char *buf;
    size_t size;
    float costs[4];
    ff_error err;

    write_png(2, 2, PNG_COLOR_TYPE_RGB, 8, NULL, 0, rgb, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_OK, "%s", err.msg);
    expect_levels(costs);
    write_png(4, 1, PNG_COLOR_TYPE_RGB_ALPHA, 8, NULL, 0, rgba, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_OK, "%s", err.msg);
    expect_levels(costs);
    write_png(1, 4, PNG_COLOR_TYPE_GRAY_ALPHA, 8, NULL, 0, grey_alpha, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_OK, "%s", err.msg);
    expect_levels(costs);
}

/* ImageMagick writes a grey picture of few levels as a palette image of
 * 1, 2, 4 or 8 bits, the palette's entries in any order; an entry no
 * pixel uses (the red one) may be any colour. */
Test(mapread, palette_png_of_grey_entries_reads_as_grey)
{
    const unsigned char palette[15] = { 255, 255, 255, 0, 0, 0, 128, 128, 128, 1, 1, 1, 255, 0, 0 };
    const unsigned char index8[4] = { 1, 3, 2, 0 };
    const unsigned char index4[2] = { 0x13, 0x20 };
    char *buf;
    size_t size;
    float costs[4];
    ff_error err;

    write_png(2, 2, PNG_COLOR_TYPE_PALETTE, 8, palette, 5, index8, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_OK, "%s", err.msg);
    expect_levels(costs);
    write_png(4, 1, PNG_COLOR_TYPE_PALETTE, 4, palette, 5, index4, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_OK, "%s", err.msg);
    expect_levels(costs);
}

Test(mapread, png_with_one_colour_or_translucent_pixel_is_refused)
{
    const unsigned char rgb[12] = { 0, 0, 0, 1, 1, 1, 128, 128, 129, 255, 255, 255 };
    const unsigned char rgba[16] = { 0, 0, 0, 255, 1, 1, 1, 255, 128, 128, 128, 254, 255, 255, 255, 255 };
    const unsigned char grey_alpha[8] = { 0, 255, 1, 0, 128, 255, 255, 255 };
    const unsigned char palette[6] = { 0, 0, 0, 200, 0, 0 };
    const unsigned char index8[4] = { 0, 0, 0, 1 };
    const char *expected = "colour PNG: paint the map in 8-bit grey without alpha (0 = wall, 1..255 = cost)";
    char *buf;
    size_t size;
    float costs[4];
    ff_error err;

    write_png(2, 2, PNG_COLOR_TYPE_RGB, 8, NULL, 0, rgb, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, expected), "%s", err.msg);
    write_png(2, 2, PNG_COLOR_TYPE_RGB_ALPHA, 8, NULL, 0, rgba, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, expected), "%s", err.msg);
    write_png(2, 2, PNG_COLOR_TYPE_PALETTE, 8, palette, 2, index8, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, expected), "%s", err.msg);
    write_png(2, 2, PNG_COLOR_TYPE_GRAY_ALPHA, 8, NULL, 0, grey_alpha, &buf, &size);
    cr_assert_eq(parse_png(buf, size, costs, 4, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "grey with alpha PNG: paint the map"), "%s", err.msg);
}
