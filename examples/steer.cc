// steer.cc - what a game's steering asks of a direction field, from C++,
// with libff: the field read from a stream (ffbuild ... | ffdir > FIELD),
// and for each position 'x y' on standard input the smoothed direction to
// walk and the distance left, as ffquery -d answers them.
//
//   steer FIELD [NAME] < positions
//
// NAME picks a field of a multi-field stream (ffbuild --goal-sets).
// Build: c++ steer.cc $(pkg-config --cflags --libs fftools) -o steer
// (see the Makefile beside it).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include <fftools/fieldsel.h>
#include <fftools/query.h>

namespace {

// A field read from a file, freed when it goes out of scope.
class Field {
public:
    Field() { ff_field_init(&field_); }
    ~Field() { ff_field_free(&field_); }
    Field(const Field &) = delete;
    Field &operator=(const Field &) = delete;

    // Read the field called name (or the only one, name empty) of the
    // stream in the file at path.
    ff_status read(const std::string &path, const std::string &name, ff_error *err)
    {
        FILE *in = std::fopen(path.c_str(), "rb");
        if (!in)
            return ff_error_set(err, FF_EUSAGE, path.c_str(), 0, 0, "cannot open");
        ff_reader reader;
        ff_reader_init(&reader, in, path.c_str());
        ff_status st = ff_field_select(&reader, name.empty() ? nullptr : name.c_str(), &field_, err);
        std::fclose(in);
        return st;
    }

    // The smoothed direction and the distance at world position (x, y).
    void ask(double x, double y, double answer[3]) const
    {
        ff_query_options opt = { 0, 1, 0, nullptr };  // smoothed, with the distance
        ff_query_point(&field_, &opt, x, y, answer);
    }

private:
    ff_field field_;
};

std::string number(double v)
{
    char buf[FF_G9_MAX];
    return std::string(buf, ff_format_g9(v, buf));
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        std::cerr << "usage: steer FIELD [NAME] < positions\n";
        return 2;
    }
    Field field;
    ff_error err;
    if (field.read(argv[1], argc == 3 ? argv[2] : "", &err) != FF_OK) {
        ff_error_print(stderr, "steer", &err);
        return ff_exit_status(err.status);
    }
    std::string line;
    long number_of_line = 0;
    while (std::getline(std::cin, line)) {
        number_of_line++;
        std::istringstream words(line);
        double x, y, answer[3];
        if (!(words >> x >> y)) {
            std::cerr << "steer: -:" << number_of_line << ": want 'x y'\n";
            return 2;
        }
        field.ask(x, y, answer);
        std::cout << number(answer[0]) << ' ' << number(answer[1]) << ' ' << number(answer[2])
                  << '\n';
    }
    std::cout.flush();
    return std::cout ? 0 : 3;
}
