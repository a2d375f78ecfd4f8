/// @file lab_table_writer.hpp
/// @brief grader/labs.json as C++: the text of lab_table.inc, which lab_registry.cpp and the bench include, so that
/// no C++ file names a lab. The build runs it (grader/tools/tilelab_lab_table.cpp) whenever labs.json changes.
#pragma once

#include <string>

namespace tilelab::grader {

/// The text of lab_table.inc for the registry @p registry_json (labs.json's text), named @p source in the file's
/// first line and in errors: three X-macro lists, in the registry's order, each left out unless the
/// includer defines it:
///   TILELAB_LAB_ENTRY(<initializer>): one per lab, a LabEntry (lab_registry.hpp says what each field is), with
///     labs.hpp's constants by name (the includer includes <tilelab/labs.hpp>);
///   TILELAB_KERNEL_LAB(<id>, <launcher>, <kernel>, <needs_tile_multiples>): the labs with a kernel of their own,
///     as C++ identifiers (grader/bench/bench.cu declares and times their launchers);
///   TILELAB_SUITE_ENTRY(<initializer>): one per suite of the registry's "suites", a SuiteEntry (lab_registry.hpp).
/// Throws std::runtime_error, saying which lab and field, on a registry the kit cannot build from: a configuration
/// neither "TILE_WIDTH" nor an object of constants, a gate or kit kernel naming no lab of the registry, a gate rung
/// whose suite is not a "gate" suite named by exactly one of the lab's checks or whose fraction is not in [0, 1], a
/// gate suite of a check that no rung races, a
/// min_compute_capability version not "major.minor" or a why with a ';' (the skip message ends its reason there),
/// a suite's time_factor that is not a whole number from 1,
/// a name that is no C++ identifier, a missing field, or text that is not JSON.
std::string lab_table_text(const std::string& registry_json, const std::string& source);

}  // namespace tilelab::grader
