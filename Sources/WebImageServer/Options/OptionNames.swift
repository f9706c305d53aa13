/// The names of each processing option, its long name first, as imgproxy spells them: what
/// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS` lists (either name of an option allows all of its names).
enum OptionNames {
    static let groups: [[String]] = [
        ["resize", "rs"], ["size", "s"], ["resizing_type", "rt"], ["width", "w"], ["height", "h"], ["dpr"],
        ["enlarge", "el"], ["extend", "ex"], ["min-width", "mw"], ["min-height", "mh"], ["zoom", "z"],
        ["extend_aspect_ratio", "extend_ar", "exar"], ["trim", "t"], ["enforce_thumbnail", "eth"], ["gravity", "g"],
        ["crop", "c"], ["quality", "q"], ["format", "f", "ext"], ["blur", "bl"], ["sharpen", "sh"], ["pixelate", "pix"],
        ["flip", "fl"], ["watermark", "wm"], ["padding", "pd"], ["format_quality", "fq"], ["max_bytes", "mb"],
        ["skip_processing", "skp"], ["raw"], ["expires", "exp"], ["rotate", "rot"], ["auto_rotate", "ar"],
        ["background", "bg"], ["strip_metadata", "sm"], ["keep_copyright", "kcr"], ["strip_color_profile", "scp"],
        ["preserve_hdr", "ph"], ["cachebuster", "cb"], ["filename", "fn"], ["return_attachment", "att"], ["preset", "pr"],
        ["max_src_resolution", "msr"], ["max_src_file_size", "msfs"], ["max_animation_frames", "maf"],
        ["max_animation_frame_resolution", "mafr"], ["max_result_dimension", "mrd"],
    ]

    /// Every name of the options `listed` names (a name of no option stays as it is, so it allows nothing more).
    static func expanded(_ listed: [String]) -> Set<String> {
        var names = Set(listed)
        for group in groups where group.contains(where: names.contains) { names.formUnion(group) }
        return names
    }
}
