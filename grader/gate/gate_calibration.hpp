/// @file gate_calibration.hpp
/// @brief The gate's calibration on one GPU, and its cache: the lab's model answer's speedup over a rung's
/// reference, measured by the gate's own procedure (checks/perf_check.cpp), kept in one JSON file per GPU, lab, reference and
/// tile width so that the checkers of a batch measure it once (two rungs that race the same reference share it). A
/// record is used only when everything it was measured with matches (the GPU's name and compute capability, the lab,
/// the reference, the tile width, the gate's size and repeats, a fingerprint of the kit's programs) and the file is
/// the checker's user's alone; anything else is measured again.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::grader {

/// What a calibration was measured with: a record of another key is another GPU's, or another kit's.
struct CalibrationKey {
    std::string gpu;                 ///< The GPU's name (cudaGetDeviceProperties, from the kit's gate program).
    std::string compute_capability;  ///< "9.0".
    std::string lab;                 ///< "lab02".
    std::string reference;           ///< The rung's reference lab, whose model the lab's model raced: "lab01".
    int tile_width = 0;              ///< TILE_WIDTH of the gate's programs.
    int size = 0;                    ///< The gate's n (n x n x n).
    int repeats = 0;                 ///< Interleaved timed requests per race.
    double request_ms = 0;           ///< The reference's time per request the gate aims for.
    /// Fingerprint of the checker and the two kit programs raced (files_fingerprint): a rebuilt kit, other
    /// build flags or another model answer measure again.
    std::string kit_fingerprint;
};

/// One calibration: this GPU's model speedup for one lab over one reference.
struct Calibration {
    CalibrationKey key;              ///< What it was measured with.
    double model_speedup = 0;        ///< Median over the trials of the model's speedup over the reference.
    double speedup_min = 0;          ///< Slowest trial.
    double speedup_max = 0;          ///< Fastest trial.
    double reference_median_ms = 0;  ///< Median over the trials of the reference's median time per launch.
    double model_median_ms = 0;      ///< The same for the model answer.
    int trials = 0;                  ///< Races run.
    double fraction = 0;             ///< The rung's fraction when it was measured (for the record).
    double required = 0;             ///< The requirement it gave then (for the record: always derived again).
    std::string reference_program;   ///< File name of the reference program.
    std::string model_program;       ///< File name of the model program.
    std::string date;                ///< When it was measured, UTC, ISO 8601.
    std::string kit_version;         ///< The kit's version (CMake's project version).
};

/// The calibration folder: TILELAB_CALIBRATION_DIR when set, else `gate-calibration` next to this checker
/// (in the kit's build tree, which a batch shares).
std::filesystem::path calibration_dir();

/// The file of @p key's calibration in @p dir:
/// `<GPU name, letters and digits>-cc<major><minor>-<lab>-vs-<reference>-tw<n>.json`.
std::filesystem::path calibration_file(const std::filesystem::path& dir, const CalibrationKey& key);

/// @p calibration as a JSON record: one flat object of strings and numbers.
nlohmann::json calibration_json(const Calibration& calibration);

/// @p text parsed as one flat JSON object (each member a string, a finite number or a boolean), or nothing when it
/// is anything else: cut short, not an object, a member nested or null, a duplicate key, text after the object.
/// A file on disk may have been cut short or changed, so a record is read back strictly, never guessed at.
std::optional<nlohmann::json> parse_flat_record(const std::string& text);

/// The calibration in @p record when it is complete and its key is @p key; otherwise nothing, and @p why_not
/// says what did not match (another GPU's, another kit's, a field missing or out of range).
std::optional<Calibration> calibration_from_json(const nlohmann::json& record, const CalibrationKey& key,
                                                 std::string& why_not);

/// The cached calibration for @p key in @p dir, or nothing with @p why_not saying why (none yet, unreadable,
/// corrupt, another GPU's or kit's, or a file or folder that others than this user could have written).
std::optional<Calibration> read_calibration(const std::filesystem::path& dir, const CalibrationKey& key,
                                            std::string& why_not);

/// Writes @p calibration into @p dir (made, mode 0700, when missing) atomically: a temporary file in the same
/// folder renamed over the old record, so a reader sees the old record or the new one, never a part. Throws
/// std::runtime_error when it cannot, or when the folder is not this user's alone.
void write_calibration(const std::filesystem::path& dir, const Calibration& calibration);

/// Empty when @p path is owned by this process's effective user and writable by no one else (group or others);
/// otherwise why not. A record another user could have written is not trusted.
std::string not_ours_alone(const std::filesystem::path& path);

/// A fingerprint of the files @p paths (FNV-1a, 64 bits, over their sizes and contents, in order), as 16 hex
/// digits. Throws std::runtime_error when one cannot be read.
std::string files_fingerprint(const std::vector<std::string>& paths);

/// The time now, UTC, as ISO 8601 ("2026-11-24T10:00:00Z").
std::string utc_now();

}  // namespace tilelab::grader
