// NUFFT-J example: simulate an undersampled 4-coil golden-angle radial scan, estimate ESPIRiT coil maps from it and
// reconstruct it iteratively with total variation (as `nufft-j pics -R T:3:0:λ`); save the images as TIFF.
//
// Headless, plain ImageJ 1 (run from the repository root after `mvn package`):
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/iterative_sample.ijm /path/to/output/folder
// Fiji:  ImageJ-linux64 --headless -batch macros/iterative_sample.ijm /path/to/output/folder
// The argument is the output folder (default: the temporary folder).

call("org.nufftj.ij1.Headless.install"); // needed only by plain ImageJ 1 without a display; harmless elsewhere
out = getArgument();
if (out == "") out = getDirectory("temp");
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

run("Simulate k-space", "phantom=shepp-logan trajectory=[golden angle] matrix=64 shots=40 coils=4 noise=0.01 output=[" + out + "iterative.cfl] device=cpu");
run("Estimate coil sensitivities", "kspace=[" + out + "iterative.cfl] device=cpu");
saveAs("Tiff", out + "iterative_maps.tif");
close();
run("Iterative reconstruction", "kspace=[" + out + "iterative.cfl] maps=espirit regularization=tv lambda=0.005 iterations=20 device=cpu");
saveAs("Tiff", out + "iterative_tv.tif");
print("Iterative reconstruction: " + getWidth() + " x " + getHeight() + " -> " + out + "iterative_tv.tif");
close();
