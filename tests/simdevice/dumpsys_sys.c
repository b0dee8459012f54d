/*
 * dumpsys_sys.c: the hardware reports a preflight reads: `dumpsys
 * display`, `dumpsys battery` and `dumpsys thermalservice`.
 *
 * display (the line harness/android/devprops.c parses; renderFrameRate on 34):
 *
 *   DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", 1080 x 2400,
 *     modeId 1, defaultModeId 1, supportedModes [{id=1, width=1080,
 *     height=2400, fps=90.0}], ... density 420, ...}
 *
 * 60 Hz panels report fps=60.000004, as real ones do (a float from the
 * panel's vsync period).  Later lines repeat the rate in DisplayInfo.
 *
 * battery:        "  level: 85", "  status: 2" (charging; 5 at 100 %),
 *                 "  USB powered: true", "  temperature: 285" ...
 * thermalservice: "Thermal Status: 0" and "Current temperatures from HAL:"
 *                 with one Temperature{...} line per sensor; API 29+.
 */
#include <string.h>

#include "commands.h"
#include "dumpsys.h"
#include "simdev.h"
#include "strbuf.h"
#include "banned.h"

/* Java's Float.toString of the panel's rate, as DisplayModes print it. */
static void
add_fps(struct strbuf *out, int hz)
{
	if (hz == 60)
		strbuf_addstr(out, "60.000004");
	else
		strbuf_addf(out, "%d.0", hz);
}

int
dumpsys_display(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	struct simdev *dev = ctx->dev;
	int w = dev->width, h = dev->height, lw, lh, dpi;

	simdev_lock(dev);
	lw = dev->ov_width ? dev->ov_width : w;
	lh = dev->ov_height ? dev->ov_height : h;
	dpi = dev->ov_density ? dev->ov_density : dev->density;
	simdev_unlock(dev);

	strbuf_addf(out, "DISPLAY MANAGER (dumpsys display)\n"
	    "  mOnlyCode=false\n  mSafeMode=false\n"
	    "  mPendingTraversal=false\n  mGlobalDisplayState=ON\n"
	    "  mViewports=[DisplayViewport{type=INTERNAL, valid=true, "
	    "displayId=0, uniqueId='local:0', orientation=0, "
	    "logicalFrame=Rect(0, 0 - %d, %d), deviceWidth=%d, "
	    "deviceHeight=%d}]\n\nDisplay Adapters: size=1\n"
	    "  LocalDisplayAdapter\n\nDisplay Devices: size=1\n",
	    w, h, w, h);
	strbuf_addf(out, "  DisplayDeviceInfo{\"Built-in Screen\": "
	    "uniqueId=\"local:0\", %d x %d, modeId 1, ", w, h);
	if (dev->sdk >= 34) {
		strbuf_addstr(out, "renderFrameRate ");
		add_fps(out, dev->refresh_hz);
		strbuf_addstr(out, ", ");
	}
	strbuf_addf(out, "defaultModeId 1, supportedModes [{id=1, width=%d, "
	    "height=%d, fps=", w, h);
	add_fps(out, dev->refresh_hz);
	strbuf_addf(out, "}], colorMode 0, supportedColorModes [0], "
	    "density %d, %d.0 x %d.0 dpi, appVsyncOff 1000000, "
	    "presDeadline %d, touch INTERNAL, rotation 0, type INTERNAL, "
	    "state ON, FLAG_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, "
	    "FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}\n"
	    "    mAdapter=LocalDisplayAdapter\n    mUniqueId=local:0\n"
	    "    mDisplayToken=android.os.BinderProxy@%x\n"
	    "    mCurrentLayerStack=0\n    mCurrentOrientation=0\n\n",
	    dev->density, dev->density, dev->density,
	    1000000000 / dev->refresh_hz, dumpsys_hash("display", 0));
	strbuf_addf(out, "Logical Displays: size=1\n  Display 0:\n"
	    "    mDisplayId=0\n    mLayerStack=0\n"
	    "    mHasContent=true\n    mPrimaryDisplayDevice=Built-in "
	    "Screen\n    mBaseDisplayInfo=DisplayInfo{\"Built-in Screen\", "
	    "displayId 0, real %d x %d, largest app %d x %d, smallest app "
	    "%d x %d, mode 1, defaultMode 1, modes [{id=1, width=%d, "
	    "height=%d, fps=", w, h, w, h, w, h, w, h);
	add_fps(out, dev->refresh_hz);
	strbuf_addf(out, "}], rotation 0, density %d (%d.0 x %d.0) dpi, "
	    "layerStack 0, type INTERNAL, state ON}\n"
	    "    mOverrideDisplayInfo=DisplayInfo{\"Built-in Screen\", "
	    "displayId 0, real %d x %d, mode 1, rotation 0, density %d}\n",
	    dev->density, dev->density, dev->density, lw, lh, dpi);
	return 0;
}

int
dumpsys_battery(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	struct simdev *dev = ctx->dev;
	int level = dev->battery, full = level >= 100;

	strbuf_addf(out, "Current Battery Service state:\n"
	    "  AC powered: false\n  USB powered: true\n"
	    "  Wireless powered: false\n");
	if (dev->sdk >= 30)
		strbuf_addstr(out, "  Dock powered: false\n");
	strbuf_addstr(out, "  Max charging current: 500000\n"
	    "  Max charging voltage: 5000000\n");
	if (dev->sdk >= 28)
		strbuf_addf(out, "  Charge counter: %d\n", level * 40000);
	strbuf_addf(out, "  status: %d\n  health: 2\n  present: true\n"
	    "  level: %d\n  scale: 100\n  voltage: %d\n"
	    "  temperature: %d\n  technology: Li-ion\n", full ? 5 : 2,
	    level, 3700 + level * 5, 250 + simdev_thermal(dev) * 40);
	return 0;
}

/* Sensor temperatures for a thermal status: hotter as it rises. */
int
dumpsys_thermal(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	static const struct {
		const char *name;
		int type;
		double base;
	} sensors[] = {
		{ "cpu0", 0, 38.5 }, { "gpu", 1, 36.0 },
		{ "battery", 2, 29.0 }, { "skin", 3, 31.5 },
	};
	int status = simdev_thermal(ctx->dev);
	size_t i, k;

	strbuf_addf(out, "IsStatusOverride: false\nThermalEventListeners:\n"
	    "\tcallbacks: 1\n\tkilled: false\n\tbroadcasts count: -1\n"
	    "ThermalStatusListeners:\n\tcallbacks: 1\n\tkilled: false\n"
	    "\tbroadcasts count: -1\nThermal Status: %d\n"
	    "Cached temperatures:\n", status);
	for (k = 0; k < 2; k++) {
		if (k)
			strbuf_addstr(out, "HAL Ready: true\nHAL connection:\n"
			    "\tThermalHAL 2.0 connected: yes\n"
			    "Current temperatures from HAL:\n");
		for (i = 0; i < sizeof(sensors) / sizeof(sensors[0]); i++)
			strbuf_addf(out, "\tTemperature{mValue=%.1f, "
			    "mType=%d, mName=%s, mStatus=%d}\n",
			    sensors[i].base + 4.5 * status, sensors[i].type,
			    sensors[i].name, sensors[i].type == 3 ? status : 0);
	}
	strbuf_addstr(out, "Current cooling devices from HAL:\n"
	    "\tCoolingDevice{mValue=0, mType=2, mName=cpu0}\n");
	return 0;
}
