// The submission's copy and a flat upload's placement (submission_copy.hpp).
#include "submission_copy.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace tilelab::grade {

namespace fs = std::filesystem;

namespace {

/// True when @p inner is @p outer or lies under it (both as the file system resolves them).
bool within(const fs::path& inner, const fs::path& outer) {
    const fs::path i = fs::weakly_canonical(inner), o = fs::weakly_canonical(outer);
    const auto o_end = std::mismatch(o.begin(), o.end(), i.begin(), i.end()).first;
    return o_end == o.end() || (std::next(o_end) == o.end() && o_end->empty());  // "/a/b/" holds "/a/b/c" too
}

}  // namespace

fs::path copy_submission(const fs::path& from, const fs::path& build) {
    // Copying a folder into itself would copy the build (the kit's, when grade.cmake built one there) into the
    // copy; a submission inside the build would be deleted as "an earlier copy" before it is read.
    if (within(build, from) || within(from, build))
        throw std::invalid_argument("the build folder " + build.string() + " and the submission " + from.string() +
                                    " hold one another: the grading copies the submission into the build folder, so "
                                    "give BUILD a folder outside the submission (its default, the kit's build/grade, "
                                    "is) and the submission a folder outside the build");
    const fs::path copy = build / "submission", links = build / "submission-links";
    fs::remove_all(copy);
    fs::remove_all(links);
    fs::create_directories(copy);
    fs::permissions(copy, fs::perms(0755));
    int second_names = 0;
    std::vector<fs::path> entries;  // named as in the submission: fs::relative would follow its links
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it)
        entries.push_back(it->path());
    std::sort(entries.begin(), entries.end());  // parents before their contents, one order every time
    for (const fs::path& entry : entries) {
        const fs::path to = copy / entry.lexically_relative(from);
        const fs::file_status status = fs::symlink_status(entry);
        if (fs::is_symlink(status)) {
            fs::copy_symlink(entry, to);
        } else if (fs::is_directory(status)) {
            fs::create_directory(to);
            fs::permissions(to, fs::perms(0755));
        } else if (fs::is_regular_file(status)) {
            fs::copy_file(entry, to);
            fs::permissions(to, fs::perms(0644));
            if (fs::hard_link_count(entry) > 1) {
                fs::create_directories(links);
                fs::create_hard_link(to, links / std::to_string(++second_names));
            }
        }  // a device, a pipe or a socket is nobody's lab file: left out
    }
    return copy;
}

std::vector<std::string> place_flat_upload(const fs::path& submission, const tilelab::report::Registry& registry,
                                           const std::vector<std::string>& labs) {
    for (const auto& [id, folder] : registry.folders) {
        std::error_code error;
        if (!folder.empty() && fs::exists(fs::symlink_status(submission / folder, error))) return {};
    }
    std::string expected;  // the files the assignment's labs take, for the note on a file that no lab takes
    for (const auto& lab : labs)
        for (const auto& file : registry.files.at(lab)) expected += (expected.empty() ? "" : ", ") + file;
    std::vector<fs::path> uploaded;
    for (auto it = fs::recursive_directory_iterator(submission); it != fs::recursive_directory_iterator(); ++it)
        if (!fs::is_directory(it->symlink_status())) uploaded.push_back(it->path().lexically_relative(submission));
    std::sort(uploaded.begin(), uploaded.end());
    std::vector<std::string> notes;
    for (const fs::path& file : uploaded) {
        std::vector<std::string> takes;
        for (const auto& lab : labs)
            for (const auto& taken : registry.files.at(lab))
                if (fs::path(taken).filename() == file.filename()) takes.push_back(taken);
        std::string why = "no lab of this assignment takes a file of that name (it takes " + expected + ")";
        if (takes.size() > 1) {
            why.clear();
            for (const auto& taken : takes) why += (why.empty() ? "" : " and ") + taken;
            why += " each take a file of that name: upload each in its lab's folder, as labs/ has them";
        } else if (takes.size() == 1 && fs::exists(fs::symlink_status(submission / takes[0]))) {
            why = "another file of that name was placed at " + takes[0] + " first";
        } else if (takes.size() == 1) {
            fs::create_directories((submission / takes[0]).parent_path());
            fs::permissions((submission / takes[0]).parent_path(), fs::perms(0755));
            fs::rename(submission / file, submission / takes[0]);
            std::cout << "-- TileLab: the uploaded " << file.string() << " is graded as " << takes[0] << std::endl;
            continue;
        }
        notes.push_back("the uploaded " + file.string() + " was not graded: " + why);
    }
    return notes;
}

}  // namespace tilelab::grade
