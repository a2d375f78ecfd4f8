// tilelab_cuda_to_cpp <input.cu> <output.cpp>: the CPU backend's build step for one lab source (see
// tilelab/cpu/cuda_to_cpp.hpp). The output starts with a #line directive naming the input, so the compiler's
// messages name the student's file and lines.
#include <tilelab/cpu/cuda_to_cpp.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: tilelab_cuda_to_cpp <input.cu> <output.cpp>\n";
        return 2;
    }
    std::ifstream input(argv[1], std::ios::binary);
    if (!input) {
        std::cerr << argv[1] << ": error: cannot read the file\n";
        return 1;
    }
    std::ostringstream text;
    text << input.rdbuf();
    std::string rewritten;
    try {
        rewritten = tilelab::cpu::cuda_to_cpp(text.str());
    } catch (const std::exception& error) {
        std::cerr << argv[1] << ": error: " << error.what() << " (CPU backend)\n";
        return 1;
    }
    std::ofstream output(argv[2], std::ios::binary);
    output << "#line 1 \"" << argv[1] << "\"\n" << rewritten;
    if (!output) {
        std::cerr << argv[2] << ": error: cannot write the file\n";
        return 1;
    }
    return 0;
}
