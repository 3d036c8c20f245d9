// Clang thread-safety annotations (-Wthread-safety, CMake option
// ST_THREAD_SAFETY): they let the compiler check that every field a mutex
// guards is only touched with that mutex held. They expand to nothing on
// compilers without the analysis (GCC), so they cost nothing there.
//
// libstdc++'s std::mutex carries no annotations; lock through common::Mutex
// and common::MutexLock (common/mutex.h) so the analysis sees the locking.
//
//   class Counter {
//    public:
//     void Add(int n) EXCLUDES(mu_) { common::MutexLock lock(mu_); total_ += n; }
//    private:
//     void AddLocked(int n) REQUIRES(mu_) { total_ += n; }
//     common::Mutex mu_;
//     int total_ GUARDED_BY(mu_) = 0;
//   };
//
// https://clang.llvm.org/docs/ThreadSafetyAnalysis.html
#pragma once

#if defined(__clang__)
#define ST_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ST_THREAD_ANNOTATION(x)
#endif

// A class that is a lock (common::Mutex); `x` names the kind in diagnostics.
#define CAPABILITY(x) ST_THREAD_ANNOTATION(capability(x))
// An RAII class that holds a capability for its lifetime (common::MutexLock).
#define SCOPED_CAPABILITY ST_THREAD_ANNOTATION(scoped_lockable)

// A field that may only be read or written with `x` held.
#define GUARDED_BY(x) ST_THREAD_ANNOTATION(guarded_by(x))
// A pointer (or smart pointer) field whose pointee may only be touched with
// `x` held; the pointer itself is not guarded.
#define PT_GUARDED_BY(x) ST_THREAD_ANNOTATION(pt_guarded_by(x))

// A function the caller must call with the capabilities held (`...Locked()`).
#define REQUIRES(...) ST_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) ST_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
// A function the caller must not call with the capabilities held (it takes
// them itself; calling it locked would deadlock).
#define EXCLUDES(...) ST_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

// A function that acquires / releases the capabilities (the object itself
// when none is named).
#define ACQUIRE(...) ST_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) ST_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
// Acquires the capability only when it returns `b` (TryLock).
#define TRY_ACQUIRE(...) ST_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
// Checks at run time that the capability is held; afterwards the analysis
// assumes it is.
#define ASSERT_CAPABILITY(x) ST_THREAD_ANNOTATION(assert_capability(x))
// A function returning a reference to the capability `x` (accessors).
#define RETURN_CAPABILITY(x) ST_THREAD_ANNOTATION(lock_returned(x))

// Turns the analysis off for one function. Say why next to each use: it is
// for code the analysis cannot follow (a lock handed between threads,
// conditional locking), not for silencing a real finding.
#define NO_THREAD_SAFETY_ANALYSIS ST_THREAD_ANNOTATION(no_thread_safety_analysis)
