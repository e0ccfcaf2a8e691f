package io.github.retrytopology.runtime.benchmark;

import java.util.Locale;

/** What one contender achieved in one round. */
record Result(double rate, double jvmMicros, double brokerMicros) {

    static Result of(int messages, Cpu before, Cpu after, long lastAt) {
        double seconds = (lastAt - before.at()) / 1e9;
        double broker = before.broker() < 0 || after.broker() < 0 ? Double.NaN
                : (after.broker() - before.broker()) / 1e3 / messages;
        return new Result(messages / seconds, (after.jvm() - before.jvm()) / 1e3 / messages, broker);
    }

    String brokerText() {
        return Double.isNaN(brokerMicros) ? "n/a" : String.format(Locale.ROOT, "%6.1f µs/msg", brokerMicros);
    }
}
