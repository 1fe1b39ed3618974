/* ffinfo - describe an ff stream without drawing it: geometry, rules,
 * channels with their figures, ids (man 1 ffinfo). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "fieldinfo.h"
#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "stream.h"

static const char *prog = "ffinfo";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffinfo [--name NAME] [--json] [--max-cells N] [-o FILE] [STREAM]\n"
            "       ffinfo --list [-o FILE] [STREAM]\n"
            "Describe an ff stream: its size, cell, origin, moves, corners, radius,\n"
            "turn cost, goals and spawns, each channel's type, count of values and of\n"
            "finite values, least and greatest, and its ids; one block per field.\n"
            "      --name NAME      describe only the fields of that name\n"
            "      --json           the description as one JSON object\n"
            "      --list           print the name of each field, one a line ('-': none)\n"
            "      --max-cells N    refuse fields of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

int main(int argc, char **argv)
{
    enum { OPT_NAME = 256, OPT_LIST, OPT_MAX_CELLS, OPT_JSON };
    static const struct option longopts[] = {
        { "name", required_argument, NULL, OPT_NAME },
        { "list", no_argument, NULL, OPT_LIST },
        { "json", no_argument, NULL, OPT_JSON },
        { "max-cells", required_argument, NULL, OPT_MAX_CELLS },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *out_path = NULL, *in_path = "-", *name = NULL;
    int list = 0, json = 0, c;
    uint64_t max_cells = 0;
    ff_error err;
    ff_outfile out;
    ff_reader reader;
    FILE *in = NULL;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_NAME: name = optarg; break;
        case OPT_LIST: list = 1; break;
        case OPT_JSON: json = 1; break;
        case OPT_MAX_CELLS:
            if (ff_option_max_cells(prog, optarg, &max_cells))
                return 2;
            break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return ff_usage_error(prog, "'%s': one stream at most", argv[optind + 1]);
    if (optind < argc)
        in_path = argv[optind];
    if (list && name)
        return ff_usage_error(prog, "%s", "--list, --name: --list names every field");
    if (list && json)
        return ff_usage_error(prog, "%s", "--list, --json: --list prints names, one a line");
    if (list) {
        if (ff_field_list_file(in_path, max_cells, out_path, &err) != FF_OK)
            goto failed;
        return 0;
    }
    if (!(in = ff_infile_open(in_path, &err)))
        goto failed;
    ff_reader_init(&reader, in, in_path);
    reader.max_cells = max_cells;
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed;
    if ((json ? ff_describe_stream_json : ff_describe_stream)(&reader, name, out.f, &err) != FF_OK) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
        ff_outfile_abort(&out);
        goto failed;
    }
    ff_infile_close(in);
    in = NULL;
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed;
    return 0;
failed:
    ff_infile_close(in);
    ff_error_print(stderr, prog, &err);
    return ff_exit_status(err.status);
}
