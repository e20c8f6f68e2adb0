package org.dyper.patch.gentest;

/** Child-JVM entry of the load-time bytecode pass test: runs the fixture and prints its result, then each event. */
public final class BlocksMain {
    private BlocksMain() {}

    public static void main(String[] args) {
        System.out.println(org.example.blocks.Loops.script());
        for (String e : Recorder.take()) {
            System.out.println(e);
        }
    }
}
