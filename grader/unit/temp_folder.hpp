/// @file temp_folder.hpp
/// @brief A fresh empty folder for one unit test, under the system's temporary folder, removed when it ends, and
/// the writing of a file in it.
#pragma once

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace tilelab::unit {

/// A fresh empty folder under the system's temporary folder, removed with everything in it when the test ends.
struct TempFolder {
    std::filesystem::path path;  ///< the folder
    TempFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "tilelab-unit-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    ~TempFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

/// Writes @p text to @p file, making its folders.
inline void write(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::trunc) << text;
}

}  // namespace tilelab::unit
