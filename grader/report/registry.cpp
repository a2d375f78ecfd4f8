#include "registry.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

namespace tilelab::report {

Registry read_registry(const nlohmann::json& registry) {
    Registry out;
    try {
        out.skipped_checks = registry.at("skipped_checks").get<std::string>();
        if (out.skipped_checks != "exclude" && out.skipped_checks != "withhold")
            throw std::runtime_error("skipped_checks is \"" + out.skipped_checks + "\", not exclude or withhold");
        // The sanitizers are no suite of their own kind on the CPU backend: it checks races and barriers itself.
        const bool sanitizer_gpu_only = registry.contains("sanitizer_gpu_only");
        for (const auto& [suite, policy] : registry.at("suites").items()) {
            out.suites.insert(suite);
            if (!policy.value("gpu_only", std::string()).empty() ||
                (sanitizer_gpu_only && policy.value("kind", std::string()) == "sanitizer"))
                out.gpu_only_suites.insert(suite);
        }
        for (const auto& lab : registry.at("labs")) {
            const auto id = lab.at("id").get<std::string>();
            out.lab_ids.push_back(id);
            out.folders[id] = lab.value("folder", std::string());  // the unit tests' registries have none
            for (const auto& file : lab.value("files", std::vector<std::string>()))
                out.files[id].push_back(out.folders[id] + "/" + file);
            for (const auto& check : lab.at("checks")) {
                RubricCheck rubric{id, check.at("name").get<std::string>(), check.at("points").get<int>(),
                                   check.at("suites").get<std::vector<std::string>>(), check.value("optional", false)};
                for (const auto& suite : rubric.suites)
                    if (!out.suites.count(suite))
                        throw std::runtime_error(id + ": check \"" + rubric.name + "\" names the suite " + suite +
                                                 ", which \"suites\" does not declare");
                out.checks.push_back(std::move(rubric));
            }
        }
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(std::string("the registry is malformed: ") + error.what());
    }
    return out;
}

nlohmann::json load_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(path + " is not JSON: " + error.what());
    }
}

Registry load_registry(const std::string& path) {
    try {
        return read_registry(load_json(path));
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(path + ": " + error.what());
    }
}

bool graded_on_cpu(const Registry& registry, const RubricCheck& check) {
    for (const auto& suite : check.suites)
        if (!registry.gpu_only_suites.count(suite)) return true;
    return false;
}

std::vector<std::string> select_labs(const Registry& registry, const std::vector<std::string>& items) {
    std::set<std::string> wanted;
    for (const auto& item : items) {
        if (item.empty()) continue;
        std::string found, known;
        for (const auto& id : registry.lab_ids) {
            const std::string& folder = registry.folders.at(id);
            const std::string number = folder.substr(0, folder.find('_'));  // "02"
            if (item == id || item == folder || item == number || (item.size() == 1 && "0" + item == number))
                found = id;
            known += (known.empty() ? "" : ", ") + id + (folder.empty() ? "" : " (" + folder + ")");
        }
        if (found.empty())
            throw std::runtime_error("the assignment (LABS, TILELAB_LABS or --labs) names '" + item + "', which is no "
                                     "lab. Name each lab by its number (02), id (lab02) or folder (02_tiled); the "
                                     "labs are " + known + ".");
        wanted.insert(found);
    }
    std::vector<std::string> labs;
    for (const auto& id : registry.lab_ids)
        if (wanted.empty() || wanted.count(id)) labs.push_back(id);
    return labs;
}

Registry only_labs(Registry registry, const std::vector<std::string>& items) {
    const std::vector<std::string> ids = select_labs(registry, items);
    const auto chosen = [&](const std::string& lab) { return std::find(ids.begin(), ids.end(), lab) != ids.end(); };
    registry.lab_ids = ids;
    registry.checks.erase(std::remove_if(registry.checks.begin(), registry.checks.end(),
                                         [&](const RubricCheck& check) { return !chosen(check.lab); }),
                          registry.checks.end());
    return registry;
}

std::string skipped_rule_text(const Registry& registry) {
    return registry.skipped_checks == "exclude" ? "checks skipped for want of a GPU are left out of the total"
                                                : "checks skipped for want of a GPU count as 0 of their points";
}

}  // namespace tilelab::report
