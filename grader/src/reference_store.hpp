/// @file reference_store.hpp
/// @brief A batch's store of large float64 references, shared by all its checkers: every submission of a class is
/// asked the same large shapes with the same operands (the seed is the kit's and the shape's), so the float64
/// product of each (about a second of a checker's CPU at 1024³) is computed once for the whole class instead of
/// once per submission and tile width.
#pragma once

#include <tilelab/host_matrix.hpp>
#include <tilelab/reference.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace tilelab::grader {

/// A folder of references, each kept with the very operands it was computed from. Only the grader reads or writes
/// it: a lab's program (another user, see sandbox.hpp) could otherwise read a product it is asked for, or plant a
/// wrong one for the submissions after it.
class ReferenceStore {
public:
    /// The store in @p folder (see usable()).
    explicit ReferenceStore(std::filesystem::path folder) : folder_(std::move(folder)) {}

    /// The store named by TILELAB_REFERENCE_STORE (grader/batch.sh sets it), where the folder is usable() and the
    /// lab's programs run as other users than the checker (labs_run_as_other_users: it is root and may take another
    /// user id); none otherwise (each checker then computes its own references, as when graded alone).
    static std::optional<ReferenceStore> from_environment();

    /// True when @p folder is a folder (not a link to one) of this process's user that no other user may read,
    /// write or enter (mode 0700 or less).
    static bool usable(const std::filesystem::path& folder);

    /// The product of @p M and @p N kept under @p name (letters, digits, '-', '_' and '.') with operands equal to
    /// these, value for value; otherwise @p compute's, which is then kept. A checker asking for a name that another
    /// is computing waits for it (the class's first submissions ask for the same ones at once). Whatever goes
    /// wrong with the folder (full, removed, an entry cut short), the answer is @p compute's.
    ReferenceProduct get(const std::string& name, const HostMatrix& M, const HostMatrix& N,
                         const std::function<ReferenceProduct()>& compute) const;

private:
    std::optional<ReferenceProduct> load(const std::filesystem::path& entry, const HostMatrix& M,
                                         const HostMatrix& N) const;
    void save(const std::filesystem::path& entry, const HostMatrix& M, const HostMatrix& N,
              const ReferenceProduct& product) const;
    std::filesystem::path folder_;
};

}  // namespace tilelab::grader
