//! The `pkit` binary: argument parsing, dispatch, and the mapping from errors to the
//! documented exit codes. All of the work happens in the `pkit` library.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cmd;

fn main() {
    std::process::exit(cmd::main());
}
