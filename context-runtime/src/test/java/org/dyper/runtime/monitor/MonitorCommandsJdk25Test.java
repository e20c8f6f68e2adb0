package org.dyper.runtime.monitor;

/** The monitor commands on JDK 25. */
class MonitorCommandsJdk25Test extends MonitorCommandsContract {
    @Override
    Child.Jdk jdk() {
        return Child.Jdk.JDK25;
    }
}
