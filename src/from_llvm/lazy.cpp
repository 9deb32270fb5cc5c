// The three LLVM C++ calls that `spvkit from-llvm` needs and the LLVM C API lacks: lazy
// bitcode loading with the error as a string (the C API reports errors through the context's
// diagnostic handler, which exits), materializing one function, and dropping a translated
// function's body while keeping its metadata (`Function::deleteBody` clears the metadata and
// the linkage, which the entry-point pass still reads). Compiled by build.rs with the `llvm`
// feature; see src/from_llvm/lazy.rs.

#include <llvm-c/Core.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <string>

using namespace llvm;

// The error's message, for LLVMDisposeMessage.
static char *message(Error e) { return LLVMCreateMessage(toString(std::move(e)).c_str()); }

// A module whose function bodies are read on materialization; it reads the bytes in place
// (they must outlive it: a copy would be the input's size again at the peak).
// Null with `*err` set (free with LLVMDisposeMessage) on failure.
extern "C" LLVMModuleRef spvkit_lazy_bitcode(LLVMContextRef cx, const char *data, size_t len,
                                             const char *name, char **err) {
    *err = nullptr;
    std::unique_ptr<MemoryBuffer> buf =
        MemoryBuffer::getMemBuffer(StringRef(data, len), StringRef(name), false);
    Expected<std::unique_ptr<Module>> m = getOwningLazyBitcodeModule(std::move(buf), *unwrap(cx));
    if (!m) {
        *err = message(m.takeError());
        return nullptr;
    }
    return wrap(m->release());
}

// Reads the body of a function of a lazily loaded module (nothing for one already read).
// Nonzero with `*err` set on failure.
extern "C" int spvkit_materialize(LLVMValueRef f, char **err) {
    *err = nullptr;
    if (Error e = unwrap<GlobalValue>(f)->materialize()) {
        *err = message(std::move(e));
        return 1;
    }
    return 0;
}

// Frees a function's blocks, keeping its metadata attachments, linkage and signature.
extern "C" void spvkit_drop_body(LLVMValueRef f) {
    Function *fn = unwrap<Function>(f);
    for (BasicBlock &bb : *fn)
        bb.dropAllReferences();
    while (!fn->empty())
        fn->begin()->eraseFromParent();
}
