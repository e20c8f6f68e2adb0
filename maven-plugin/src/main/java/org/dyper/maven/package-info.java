/**
 * The Dyper Maven plugin: {@code generate} and {@code weave} for compile-time profiling builds, {@code run} for
 * load-time runs. The goals are thin layers over {@code org.dyper.patch.build} and {@code org.dyper.patch.launch}, the code the {@code dyper} CLI uses.
 */
package org.dyper.maven;
