package io.github.retrytopology.operations.console;

import io.github.retrytopology.operations.internal.BrokerMessages;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The console's actions, each a {@link Job} on a thread of its own, and the rule that keeps them apart: one job
 * at a time per parking lot, which no reading of it overlaps either. A reading must see every message, and a
 * replay must not miss those a reading holds for a moment.
 *
 * <p>Each action carries a request id that its page made once, when the person asked: the same id again (a
 * double click, a request the browser or a proxy sent twice) gets the same job, never a second one.
 */
final class Jobs implements AutoCloseable {

    /** Finished jobs kept for their pages, the oldest forgotten first. */
    private static final int KEPT = 200;
    /** How long a reading waits for another reading of the same parking lot to end. */
    private static final long READING_WAIT_SECONDS = 60;

    /** What a job does, telling its job how it goes. */
    @FunctionalInterface
    interface Work {
        void run(Job job) throws Exception;
    }

    private final Clock clock;
    private final ExecutorService threads;
    private final Map<String, Job> byId = new LinkedHashMap<>();
    private final Map<String, Job> byRequest = new HashMap<>();
    private final Map<String, Job> running = new HashMap<>();
    private final Map<String, ReentrantLock> parkingLots = new ConcurrentHashMap<>();

    Jobs(Clock clock) {
        this.clock = clock;
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(work -> {
            Thread thread = new Thread(work, "retry-console-job-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts a job, or returns the one that this request id started before.
     *
     * @param fingerprint what the request asked and who, to tell a request sent again from another that reuses its id
     * @param operator who asked, as the job's page and the log name them
     * @throws ConsoleException 409 if the id came with another request, or a job of this parking lot runs
     */
    synchronized Submitted submit(String requestId, String fingerprint, Job.Kind kind, String service, String operator,
            @Nullable Long expected, @Nullable Double rate, Work work) {
        Job seen = byRequest.get(requestId);
        if (seen != null) {
            if (!seen.fingerprint().equals(fingerprint)) {
                throw ConsoleException.conflict("request id " + requestId + " was used for another action: make a "
                        + "new id for each action");
            }
            return new Submitted(seen, false);
        }
        Job busy = running.get(service);
        if (busy != null) {
            throw ConsoleException.conflict("a " + busy.kind().id() + " of " + service + "'s parking lot is running ("
                    + "job " + busy.id() + "); wait until it ends");
        }
        Job job = new Job(UUID.randomUUID().toString(), requestId, fingerprint, kind, service, operator, expected, rate,
                clock.instant());
        byId.put(job.id(), job);
        byRequest.put(requestId, job);
        running.put(service, job);
        forgetOld();
        threads.execute(() -> run(job, work));
        return new Submitted(job, true);
    }

    /** A job, and whether this request started it. */
    record Submitted(Job job, boolean started) {
    }

    private void run(Job job, Work work) {
        ReentrantLock lock = lock(job.service());
        lock.lock();
        try {
            work.run(job);
            job.finish(clock.instant(), null);
        } catch (Exception e) {
            job.finish(clock.instant(), BrokerMessages.of(e));
        } catch (Error e) {
            job.finish(clock.instant(), "the console failed: " + e);
            throw e;
        } finally {
            lock.unlock();
            synchronized (this) {
                running.remove(job.service());
            }
        }
    }

    /**
     * Reads a parking lot while no job of it runs and no other reading of it does.
     *
     * @throws ConsoleException 409 if a job of it runs
     */
    <T> T reading(String service, Reading<T> reading) throws Exception {
        synchronized (this) {
            Job busy = running.get(service);
            if (busy != null) {
                throw ConsoleException.conflict("a " + busy.kind().id() + " of " + service + "'s parking lot is "
                        + "running (job " + busy.id() + "); its messages are shown when it ends");
            }
        }
        ReentrantLock lock = lock(service);
        if (!lock.tryLock(READING_WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw ConsoleException.conflict(service + "'s parking lot is busy; try again in a moment");
        }
        try {
            return reading.read();
        } finally {
            lock.unlock();
        }
    }

    /** A reading of a parking lot. */
    @FunctionalInterface
    interface Reading<T> {
        T read() throws Exception;
    }

    synchronized Job job(String id) {
        Job job = byId.get(id);
        if (job == null) {
            throw ConsoleException.notFound("no job " + id + " (the console keeps the last " + KEPT + ")");
        }
        return job;
    }

    /** Every job kept, the newest first. */
    synchronized List<Job> all() {
        List<Job> jobs = new ArrayList<>(byId.values());
        Collections.reverse(jobs);
        return jobs;
    }

    private ReentrantLock lock(String service) {
        return parkingLots.computeIfAbsent(service, name -> new ReentrantLock());
    }

    private void forgetOld() {
        Iterator<Job> oldest = byId.values().iterator();
        while (byId.size() > KEPT && oldest.hasNext()) {
            Job job = oldest.next();
            if (job.finished()) {
                oldest.remove();
                byRequest.remove(job.requestId());
            }
        }
    }

    /** Stops the jobs that run: a replay stops between two messages, and what it has not replayed stays parked. */
    @Override
    public void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
