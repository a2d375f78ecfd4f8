// Members of __shared__ structs on the CPU backend's source rewrite: `__shared__ Tiles tiles;` and `__shared__ struct
// { float M[T][T]; float N[T][T]; } tiles;`. A shared array's elements must be Shared<T> (kernel_language.hpp) so
// that every access is checked for races and counted, but Shared<Tiles> would have no members. So the rewrite gives
// each struct type that a __shared__ declaration uses a twin, the same data members with Shared<T> elements (a
// member of another such struct: that struct's twin), and declares the shared variable with the twin's type. The
// struct itself stays as written, for the code that uses it outside shared memory.
#pragma once

#include "source_text.hpp"

#include <map>
#include <string>
#include <vector>

namespace tilelab::cpu::rewrite {

/// A struct, class or union definition in the source.
struct StructDefinition {
    std::string name;            ///< Its name ("" for an anonymous one; a typedef's name for `typedef struct {...} N;`).
    std::string keyword;         ///< "struct", "class" or "union".
    std::size_t begin = 0;       ///< Where its text starts ("typedef" or the keyword).
    std::size_t open = 0;        ///< Its opening brace ...
    std::size_t close = 0;       ///< ... and the closing one.
    std::size_t semicolon = 0;   ///< The ';' that ends the declaration it is in.
};

/// The struct types that __shared__ declarations use and their twins' names: "Tiles" -> "tilelab_shared_Tiles".
using StructTwins = std::map<std::string, std::string>;

/// Reads the struct, class or union definition whose keyword is at @p keyword (`struct [alignas(n)] [Name] [final]
/// {...}`); false when none starts there (a forward declaration, an elaborated type, `enum class`, a template
/// parameter, a class with bases).
bool read_struct_definition(const std::string& s, const Scan& sc, std::size_t keyword, StructDefinition* definition);

/// Reads the definition in place in the __shared__ declaration at @p at (`__shared__ [alignas(n)] struct [N] {...}
/// x;`); false when the declaration names a type defined elsewhere.
bool inline_struct_definition(const std::string& s, const Scan& sc, std::size_t at, StructDefinition* definition);

/// Finds the struct types that `__shared__` declarations in function bodies of @p s name (and, inside them, their
/// members' struct types) where the source defines them, and adds to @p edits the insertion of each one's twin
/// just after its definition, on the same line. Returns their names with their twins'.
StructTwins add_struct_twins(const std::string& s, const Scan& sc, std::vector<Edit>& edits);

/// The definition of @p definition's twin, named @p twin, on one line: its data members with Shared<T> elements,
/// and the member list that names an element in the race checks' messages ("tiles.m[3][4]").
std::string twin_definition(const std::string& s, const Scan& sc, const StructDefinition& definition,
                            const std::string& twin, const StructTwins& twins);

/// "struct Tiles", "class Tiles", "Tiles" -> "Tiles": the type named in a declaration, without its keyword.
std::string without_class_key(const std::string& type);

}  // namespace tilelab::cpu::rewrite
