// What tilelab-report needs of the lab registry (grader/labs.json): the labs, their rubric checks and the suites.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilelab::report {

/// One rubric check of a lab: the points it is worth and the suites (CTest tests graded.<lab>.tw<N>[.cpu].<suite>)
/// that decide it.
struct RubricCheck {
    std::string lab;                  ///< the lab's id, "lab02"
    std::string name;                 ///< what the student reads, "tiles in shared memory"
    int points = 0;                   ///< what the check is worth
    std::vector<std::string> suites;  ///< the suites whose tests decide it
    bool optional = false;            ///< left out where none of its tests exist (compute-sanitizer not installed)
};

/// The registry as the report reads it.
struct Registry {
    std::vector<std::string> lab_ids;  ///< in the registry's order
    std::vector<RubricCheck> checks;   ///< every lab's checks, in the registry's order
    std::set<std::string> suites;      ///< every suite name (a graded test's last part is one of these)
    std::set<std::string> gpu_only_suites;  ///< suites with no test on the CPU backend (a "gpu_only" reason, sanitizers)
    std::map<std::string, std::string> folders;  ///< each lab's folder by id, "lab02" -> "02_tiled"
    std::map<std::string, std::vector<std::string>> files;  ///< each lab's files by id, "lab02" -> "02_tiled/kernel.cu"
    std::string skipped_checks;        ///< "exclude" or "withhold": what a check skipped for want of a GPU counts
};

/// The registry from its parsed JSON; throws std::runtime_error naming what is missing or malformed.
Registry read_registry(const nlohmann::json& registry);

/// The registry from a file (grader/labs.json); throws std::runtime_error when it cannot be read.
Registry load_registry(const std::string& path);

/// Whether @p check can earn points on the CPU backend: false when every suite deciding it needs a GPU (the
/// performance gate, compute-sanitizer), so that the platforms without one (GitHub Classroom) offer its points.
bool graded_on_cpu(const Registry& registry, const RubricCheck& check);

/// The lab ids that an assignment's @p items name, in the registry's order: each item a lab id ("lab02"), its
/// number ("02", "2") or its folder ("02_tiled"); no items: every lab. The one reader of an assignment (grade.cmake
/// -DLABS and TILELAB_LABS through tilelab-grade, tilelab-report's --labs). Throws std::runtime_error naming an
/// item that matches no lab, with the labs there are.
std::vector<std::string> select_labs(const Registry& registry, const std::vector<std::string>& items);

/// @p registry with only the labs an assignment's @p items name (select_labs; their checks and suites stay in the
/// registry's order): what a grade of those labs alone counts. Throws as select_labs does.
Registry only_labs(Registry registry, const std::vector<std::string>& items);

/// The rule for skipped checks in words, as the report prints it after the total.
std::string skipped_rule_text(const Registry& registry);

/// A JSON file's content; throws std::runtime_error naming the file when it cannot be read or parsed.
nlohmann::json load_json(const std::string& path);

}  // namespace tilelab::report
