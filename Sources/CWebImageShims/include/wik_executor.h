#ifndef WIK_EXECUTOR_H
#define WIK_EXECUTOR_H

/// Makes Swift's global executor hand every job it is given to `enqueue` (the job is Swift's `UnownedJob`),
/// through the hook Swift's runtime keeps for that; jobs with a delay (`Task.sleep`) still go through Swift's
/// own timer. For the command-line tool, which runs its tasks on the event loops its connections use, so
/// that a response does not wake a second thread to resume the task awaiting it. Call once, before any
/// task is started. Returns 1 when the hook is installed, 0 when another hook is already in place.
int wik_route_global_executor(void (*enqueue)(void *job));

#endif
