package org.dyper.runtime.monitor;

/** The monitor commands on JDK 17. */
class MonitorCommandsJdk17Test extends MonitorCommandsContract {
    @Override
    Child.Jdk jdk() {
        return Child.Jdk.JDK17;
    }
}
