// tilelab-lab-table: writes lab_table.inc, the registry's labs as C++ (tools/lib/lab_table_writer.hpp), at build time.
//   tilelab-lab-table <labs.json> <lab_table.inc>
// The registry is named in the output and in errors as given (the build passes grader/labs.json, relative to the
// source tree). Exit 1, with the reason, on a registry the kit cannot build from; nothing is written then.
#include "lab_table_writer.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: tilelab-lab-table <labs.json> <lab_table.inc>\n";
        return 2;
    }
    try {
        std::ifstream in(argv[1]);
        if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
        std::ostringstream json;
        json << in.rdbuf();
        const std::string text = tilelab::grader::lab_table_text(json.str(), argv[1]);
        const std::filesystem::path output = argv[2];
        if (output.has_parent_path()) std::filesystem::create_directories(output.parent_path());
        std::ofstream out(output, std::ios::binary);
        if (!(out << text) || !out.flush()) throw std::runtime_error("cannot write " + output.string());
    } catch (const std::exception& e) {
        std::cerr << "tilelab-lab-table: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
