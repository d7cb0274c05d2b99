//! The `pkit` binary: argument parsing, dispatch, and the mapping from errors to the
//! documented exit codes. All of the work happens in the `pkit` library.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cmd;

fn main() {
    openssl_allocations_to_mimalloc();
    std::process::exit(cmd::main());
}

/// OpenSSL allocates and frees on every key generation, signature and parameter query;
/// with glibc's malloc that was about 5% of `pkit issue batch` (perf). This hands
/// OpenSSL the allocator the rest of the binary uses. It must run before OpenSSL's first
/// allocation; OpenSSL refuses the change (returns 0) after that, which is harmless.
fn openssl_allocations_to_mimalloc() {
    use std::ffi::{c_char, c_int, c_void};
    type MallocFn = extern "C" fn(usize, *const c_char, c_int) -> *mut c_void;
    type ReallocFn = extern "C" fn(*mut c_void, usize, *const c_char, c_int) -> *mut c_void;
    type FreeFn = extern "C" fn(*mut c_void, *const c_char, c_int);
    extern "C" {
        // <openssl/crypto.h>; libcrypto is linked through native-ossl-sys.
        fn CRYPTO_set_mem_functions(m: MallocFn, r: ReallocFn, f: FreeFn) -> c_int;
    }
    extern "C" fn malloc(n: usize, _: *const c_char, _: c_int) -> *mut c_void {
        // SAFETY: mi_malloc accepts any size (0 included) and returns NULL on failure,
        // which OpenSSL checks.
        unsafe { libmimalloc_sys::mi_malloc(n) }
    }
    extern "C" fn realloc(p: *mut c_void, n: usize, _: *const c_char, _: c_int) -> *mut c_void {
        // SAFETY: `p` is NULL or came from `malloc`/`realloc` above: OpenSSL only
        // reallocates what it allocated, and the switch happens before it allocates.
        unsafe { libmimalloc_sys::mi_realloc(p, n) }
    }
    extern "C" fn free(p: *mut c_void, _: *const c_char, _: c_int) {
        // SAFETY: as for `realloc`; mi_free accepts NULL.
        unsafe { libmimalloc_sys::mi_free(p) }
    }
    // SAFETY: three functions with the signatures <openssl/crypto.h> declares.
    unsafe {
        CRYPTO_set_mem_functions(malloc, realloc, free);
    }
}
