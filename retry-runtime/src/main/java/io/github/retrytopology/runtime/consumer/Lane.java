package io.github.retrytopology.runtime.consumer;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread of a service's consumers and the work queued for it: a task runs after those before it, alone, so
 * that the state a lane owns needs no lock. The owner's methods say so by calling {@link #checkOwned()}, which
 * fails on any other thread, as Netty's event loops do. Work offered once the consumers have stopped is dropped:
 * the end of their channels settles everything. A lane that is offered nothing does nothing: no task runs on a
 * timer unless something waits for it.
 */
abstract sealed class Lane permits ControlLane, SettlementLane {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final String name;
    private final ScheduledExecutorService executor;
    private final Queue<Runnable> batched = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicLong tasksRun = new AtomicLong();
    private volatile @Nullable Thread thread;

    Lane(String name) {
        this.name = name;
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread made = new Thread(runnable, name);
            made.setDaemon(true);
            thread = made;
            return made;
        });
    }

    /** Whether the calling thread is this lane's. */
    final boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    /**
     * Fails unless called on this lane's thread: the first line of every method of the state the lane owns, so
     * that a call from elsewhere fails where it is made, not later as a race.
     */
    final void checkOwned() {
        if (!isCurrent()) {
            throw new IllegalStateException("this runs on " + name + ", not on " + Thread.currentThread().getName());
        }
    }

    /** How many tasks the lane has run: an idle consumer's lanes run none. */
    final long tasksRun() {
        return tasksRun.get();
    }

    /** Runs a task on the lane; what it throws is logged, and the lane goes on. */
    final void execute(Runnable task) {
        try {
            executor.execute(() -> run(task));
        } catch (RejectedExecutionException stopped) {
            log.debug("Dropped a task of {}: the consumers have stopped", name);
        }
    }

    /**
     * Queues a task to run on the lane with those queued before it that have not run yet: a burst of them (the
     * broker's confirms come one callback each) costs the lane one wake-up, not one each.
     */
    final void batch(Runnable task) {
        batched.add(task);
        if (draining.compareAndSet(false, true)) {
            execute(this::drain);
        }
    }

    private void drain() {
        draining.set(false);
        for (Runnable task; (task = batched.poll()) != null; ) {
            run(task);
        }
    }

    /** Runs a task on the lane after a pause. */
    final void schedule(Runnable task, long nanos) {
        try {
            executor.schedule(() -> run(task), nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            log.debug("Dropped a task of {}: the consumers have stopped", name);
        }
    }

    /**
     * Runs a task on the lane and waits until it has run; runs it at once if called on the lane itself. Returns
     * false if the lane had stopped and the task did not run.
     */
    final boolean await(Runnable task) throws InterruptedException {
        if (isCurrent()) {
            task.run();
            return true;
        }
        try {
            executor.submit(() -> run(task)).get();
            return true;
        } catch (RejectedExecutionException stopped) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a task of " + name + " failed", e.getCause());
        }
    }

    /** Stops the lane: what is queued is dropped. */
    final void stop() {
        executor.shutdownNow();
    }

    private void run(Runnable task) {
        tasksRun.incrementAndGet();
        try {
            task.run();
        } catch (RuntimeException e) {
            log.error("A task of {} failed; the lane goes on", name, e);
        }
    }
}
