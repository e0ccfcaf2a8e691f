package io.github.retrytopology.runtime.benchmark;

import java.lang.management.ManagementFactory;

/** A moment, with the CPU this JVM and the broker had used by then, in nanoseconds. */
record Cpu(long at, long jvm, long broker) {

    static Cpu now(BrokerCpu brokerCpu) {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new Cpu(System.nanoTime(), os.getProcessCpuTime(), brokerCpu.nanos());
    }
}
