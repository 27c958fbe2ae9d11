// NUFFT-J example: simulate golden-angle k-space of a Shepp-Logan phantom (4 coils), reconstruct it, and compare the
// CPU and GPU engines. Without a usable GPU the comparison says why in the Log and still saves the CPU image.
//
// Headless:
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/simulate_compare_cpu_gpu.ijm /path/to/output/folder

call("org.nufftj.ij1.Headless.install");
out = getArgument();
if (out == "") out = getDirectory("temp");
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

run("Simulate k-space", "phantom=shepp-logan trajectory=[golden angle] matrix=64 coils=4 noise=0.01 output=[" + out + "simulated.cfl] reconstruct device=cpu");
// Outputs: the phantom and its reconstruction.
selectImage("simulated");
saveAs("Tiff", out + "simulated_recon.tif");
close();
selectImage("simulated phantom");
saveAs("Tiff", out + "simulated_phantom.tif");
close();

run("Compare CPU and GPU", "kspace=[" + out + "simulated.cfl]");
selectImage("simulated CPU");
saveAs("Tiff", out + "compare_cpu.tif");
if (isOpen("simulated GPU")) {
	selectImage("simulated GPU");
	saveAs("Tiff", out + "compare_gpu.tif");
	selectImage("simulated GPU-CPU");
	saveAs("Tiff", out + "compare_difference.tif");
	print("GPU vs CPU: NRMSE " + getResult("NRMSE", 0) + ", max |diff| " + getResult("max |diff|", 0));
} else {
	print("no GPU image: " + getResultString("note", 0));
}
saveAs("Results", out + "compare.csv");
