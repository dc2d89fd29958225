// The site nav's menu button on narrow screens: the nav folds away behind it.
// Without this script the button stays hidden and the nav stays open.
const button = document.querySelector(".nav-toggle");
const nav = document.getElementById("site-nav");
if (button && nav) {
  document.documentElement.classList.add("nav-folds");
  button.hidden = false;
  const setOpen = (open) => {
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("nav-open", open);
  };
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    setOpen(open);
  });
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      button.focus();
    }
  });
}
