/// @file submission_copy.hpp
/// @brief The submission as tilelab-grade grades it: a copy in the build folder that the labs' compiler (its own
/// user, as root) can read and nothing in the grading can change, with an upload of a lab's files alone placed in
/// the folder of the assignment's lab that takes each file.
#pragma once

#include "registry.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tilelab::grade {

/// Copies @p from into <build>/submission (files readable by all, writable by their owner; folders open to all),
/// replacing an earlier copy. A symbolic link stays a link, which the source check refuses; a hard link would
/// become a plain file, so each file with more than one name gets a second name (a hard link) under
/// <build>/submission-links/, which the source check sees and refuses too. Returns the copy's folder. Throws
/// std::invalid_argument, copying nothing, where @p build lies inside @p from or @p from inside @p build.
std::filesystem::path copy_submission(const std::filesystem::path& from, const std::filesystem::path& build);

/// Where the @p submission holds no lab's folder (an upload of a lab's files alone, or of one folder): moves each
/// file, as it is (a link stays a link), to where the one lab of the assignment (@p labs, lab ids) that takes a
/// file of its name expects it, saying so on standard output. Returns a note for each file left where it was,
/// saying why; a missing file is then its lab's build check's message.
std::vector<std::string> place_flat_upload(const std::filesystem::path& submission,
                                           const tilelab::report::Registry& registry,
                                           const std::vector<std::string>& labs);

}  // namespace tilelab::grade
