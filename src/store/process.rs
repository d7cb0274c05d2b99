//! Processes as owners of half-done work: a temporary file (named with its writer's
//! process id) or a batch chunk being delivered (recorded with its process's id and start
//! time). A later process removes or takes over such work only once its owner is gone.
//!
//! Linux's `/proc` says whether a process runs; a process that was killed but not yet
//! reaped by its parent (state Z) counts as gone. Elsewhere, or without `/proc`, every
//! owner is taken to be alive, which leaves leftovers alone rather than touch another's
//! work.

/// This process as an owner: its id and start time, so that a later process reusing the
/// id is not mistaken for it.
pub fn this_process() -> String {
    let pid = std::process::id();
    format!("{pid} {}", start_time(pid).unwrap_or_default())
}

/// Whether the process [`this_process`] described is still running.
pub fn owner_alive(owner: &str) -> bool {
    let mut parts = owner.split(' ');
    let (Some(pid), Some(start)) = (parts.next(), parts.next()) else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if !proc_mounted() {
        return true;
    }
    !start.is_empty() && start_time(pid).as_deref() == Some(start)
}

/// Whether process `pid` is running (any process with that id).
pub fn pid_alive(pid: u32) -> bool {
    !proc_mounted() || start_time(pid).is_some()
}

fn proc_mounted() -> bool {
    std::path::Path::new("/proc/self/stat").exists()
}

/// Field 22 of `/proc/PID/stat`, counted after the command name, which may itself hold
/// spaces and parentheses; `None` for a process that is gone or has exited and awaits
/// its parent (state Z or X).
fn start_time(pid: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat[stat.rfind(')')? + 1..].split_ascii_whitespace();
    if matches!(fields.next(), Some("Z" | "X")) {
        return None;
    }
    fields.nth(18).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_stranger_is_not() {
        let me = this_process();
        assert!(owner_alive(&me), "{me}");
        assert!(pid_alive(std::process::id()));
        let pid = std::process::id();
        assert!(!owner_alive(&format!("{pid} 1")));
        assert!(!owner_alive(&format!("{pid} ")));
        assert!(!owner_alive("not a pid"));
        assert!(!owner_alive(""));
    }

    #[test]
    fn a_finished_child_is_gone() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!pid_alive(pid));
    }
}
