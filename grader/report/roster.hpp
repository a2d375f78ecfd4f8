/// @file roster.hpp
/// @brief Who each submission of a class is: the names, student ids and e-mails that a platform's export lists
/// beside its folders (Gradescope's "Export Submissions" zip: submission_metadata.yml, folders submission_<id>),
/// so that grades.csv and class.html name students rather than submission_12345678.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace tilelab::report {

/// The people behind one submission (a group submission has several: joined with "; ").
struct Submitters {
    std::string name;   ///< "Ana Ruiz" or "Ana Ruiz; Ben Ng"
    std::string sid;    ///< the students' ids as the platform has them
    std::string email;  ///< their e-mail addresses
};

/// The submitters of each folder named in Gradescope's submission_metadata.yml (@p yaml, its text): top-level keys
/// are the folders ("submission_123:"), each with a ":submitters:" list of ":name:", ":sid:" and ":email:" (quoted
/// or not). Anything else in the file is ignored, and a file of another shape gives what it could read (no throw):
/// the export is the instructor's, but a name never decides a grade.
std::map<std::string, Submitters> read_gradescope_metadata(const std::string& yaml);

/// @p roster as JSON, {"<folder>": {"name", "sid", "email"}}: the "roster" of a batch's class.json.
nlohmann::json roster_json(const std::map<std::string, Submitters>& roster);

/// The roster of a batch's class.json ("roster"), empty where it has none or it is not one.
std::map<std::string, Submitters> roster_from_json(const nlohmann::json& class_record);

}  // namespace tilelab::report
