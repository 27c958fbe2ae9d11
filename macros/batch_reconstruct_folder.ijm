// NUFFT-J example: reconstruct every k-space file in a folder (ISMRMRD .h5, BART .cfl with its *_traj.cfl beside it)
// and save one TIFF per file in an output folder.
//
// Headless:
//   java -Djava.awt.headless=true -Dplugins.dir=target/imagej -jar target/ij/ij.jar \
//        -batch macros/batch_reconstruct_folder.ijm "/input/folder|/output/folder"
// The argument is "input|output" (default: sample-data/ismrmrd and the temporary folder).

call("org.nufftj.ij1.Headless.install");
arg = getArgument();
in = "sample-data/ismrmrd/";
out = getDirectory("temp");
if (arg != "") {
	parts = split(arg, "|");
	in = parts[0];
	if (parts.length > 1) out = parts[1];
}
if (!endsWith(in, "/") && !endsWith(in, "\\")) in = in + File.separator;
if (!endsWith(out, "/") && !endsWith(out, "\\")) out = out + File.separator;
if (!File.exists(out)) File.makeDirectory(out); // the output folder, made when missing (one level)
if (!File.isDirectory(out)) exit("output folder " + out + " does not exist and could not be made");
setBatchMode(true);

list = getFileList(in);
done = 0;
for (i = 0; i < list.length; i++) {
	name = list[i];
	isH5 = endsWith(name, ".h5");
	isCfl = endsWith(name, ".cfl") && !endsWith(name, "_traj.cfl");
	if (!isH5 && !isCfl) continue;
	base = substring(name, 0, lastIndexOf(name, "."));
	run("Reconstruct k-space", "kspace=[" + in + name + "] device=auto");
	saveAs("Tiff", out + base + ".tif");
	close();
	done++;
	print("reconstructed " + name + " -> " + out + base + ".tif");
}
print("batch: " + done + " file(s) reconstructed");
